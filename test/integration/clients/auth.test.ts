import { afterEach, describe, expect, it } from 'vitest'
import type { Credentials } from '../../../main/services/connection/settings'
import type { Entity } from '../../../main/services/workflow/entities'
import { createConnection } from '../../../main/services/connection/connection'
import { demoCredentials, fastHttp, manualClock, recordWire, startHarness, type Harness, type WireRecorder } from './support/sandbox'
import { startTinyServer } from './support/tiny-server'
import { caught } from './support/outcomes'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function harnessWith(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const harness = await startHarness(options)
  cleanups.push(() => harness.close())
  return harness
}

function wire(): WireRecorder {
  const recorder = recordWire()
  cleanups.push(() => recorder.stop())
  return recorder
}

const TOKEN_PATH = '/oauth2/token/'

describe('token expiry mid-run', () => {
  it('renews before expiry by the clock, so the platform never sees an expired token', async () => {
    const clock = manualClock()
    const harness = await harnessWith({ now: clock.date, tokenTtlSeconds: 60 })
    const recorder = wire()
    const { workflow } = harness.connect({ now: clock.now })
    const all: Entity[] = []
    for await (const page of workflow.list('publishers', { query: { page_size: '10' } })) {
      all.push(...page)
      clock.advance(40_000) // every page is 40 s later: the token dies during the run
    }
    expect(all).toHaveLength(40)
    // Pages at 0, 40, 80 and 120 s with a 60 s token: signed in at 0 s and again before the page at 80 s.
    expect(recorder.count('POST', TOKEN_PATH)).toBe(2)
    expect(recorder.answered(401)).toBe(0)
  })

  it('renews once on a 401 and repeats the request, without the caller noticing', async () => {
    const serverClock = manualClock()
    const harness = await harnessWith({ now: serverClock.date, tokenTtlSeconds: 60 })
    const recorder = wire()
    // The client's clock stands still: it believes its token is fresh, the platform disagrees.
    const { workflow } = harness.connect({ now: () => Date.now() })
    const all: Entity[] = []
    let pages = 0
    for await (const page of workflow.list('publishers', { query: { page_size: '10' } })) {
      all.push(...page)
      pages += 1
      if (pages === 2) serverClock.advance(120_000)
    }
    expect(all).toHaveLength(40)
    expect(recorder.answered(401, '/publishers/')).toBe(1)
    expect(recorder.count('POST', TOKEN_PATH)).toBe(2)
  })

  it('with a one-second token (token_ttl_s: 1) the run goes on when more than a second passes between pages', async () => {
    // One clock for the platform and the app, moved by hand: the second passes without being waited for.
    const clock = manualClock()
    const harness = await harnessWith({ now: clock.date })
    harness.sandbox.setFaults({ token_ttl_s: 1 })
    const recorder = wire()
    const { workflow } = harness.connect({ now: clock.now })
    const all: Entity[] = []
    let waited = false
    for await (const page of workflow.list('publishers', { query: { page_size: '20' } })) {
      all.push(...page)
      if (!waited) {
        waited = true
        clock.advance(1_100)
      }
    }
    expect(all).toHaveLength(40)
    expect(recorder.count('POST', TOKEN_PATH)).toBe(2)
  })

  it('reporting renews on access_error too', async () => {
    const serverClock = manualClock()
    const harness = await harnessWith({ now: serverClock.date, tokenTtlSeconds: 60 })
    const recorder = wire()
    const { reporting } = harness.connect({ now: () => Date.now() })
    await reporting.info({ project_name: 'demo', slicer_name: 'supply' })
    serverClock.advance(120_000)
    const info = await reporting.info({ project_name: 'demo', slicer_name: 'supply' })
    expect(info.status).toBe('success')
    expect(recorder.answered(403, '/API/v2/info')).toBe(1)
    expect(recorder.count('POST', TOKEN_PATH)).toBe(2)
  })
})

describe('a rejected renewal is reported once, never looped', () => {
  it('the password changed while the token expired: one renewal attempt, then "Sign-in rejected"', async () => {
    const serverClock = manualClock()
    const harness = await harnessWith({ now: serverClock.date, tokenTtlSeconds: 60 })
    let password = 'demo'
    const credentials = async (): Promise<Credentials> => ({ method: 'password', username: 'demo', password })
    const recorder = wire()
    const { workflow } = harness.connect({ credentials, now: () => Date.now() })
    await workflow.get('publishers', 1)
    password = 'changed-elsewhere'
    serverClock.advance(120_000)

    const error = await caught(workflow.get('publishers', 2))
    expect(error.code).toBe('auth')
    expect(error.message).toMatch(/^Sign-in rejected: Invalid username or password\./)
    expect(recorder.count('POST', TOKEN_PATH)).toBe(2)
    expect(recorder.count('GET', '/publishers/2/')).toBe(1)

    // The next call tries once more, again exactly once.
    await caught(workflow.get('publishers', 2))
    expect(recorder.count('POST', TOKEN_PATH)).toBe(3)
  })

  it('a platform that refuses every token: two tries in all, then "Sign-in rejected" with its reason', async () => {
    const tiny = await startTinyServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ detail: 'Invalid or expired token.' }))
    })
    cleanups.push(() => tiny.close())
    const http = fastHttp()
    cleanups.push(() => http.close())
    const connection = createConnection({
      settings: { baseUrl: tiny.url, authUrl: `${tiny.url}/auth`, reportUrl: tiny.url, serviceId: 'demo', reportServiceId: null },
      credentials: async () => demoCredentials,
      http,
    })
    const error = await caught(connection.workflow.get('publishers', 1))
    expect(error.code).toBe('auth')
    expect(error.message).toMatch(/^Sign-in rejected: Invalid or expired token\./)
    expect(tiny.requests.filter((request) => request.url.includes('/publishers/'))).toHaveLength(2)
    expect(tiny.requests.filter((request) => request.url.includes(TOKEN_PATH))).toHaveLength(2)
  })

  it('a permanent token that is refused is not "renewed" into the same token', async () => {
    const harness = await harnessWith()
    const recorder = wire()
    const { workflow } = harness.connect({ credentials: async () => ({ method: 'token', token: 'not-a-real-token' }) })
    const error = await caught(workflow.get('publishers', 1))
    expect(error.code).toBe('auth')
    expect(recorder.count('GET', '/publishers/1/')).toBe(1)
    expect(recorder.count('POST', TOKEN_PATH)).toBe(0)
  })
})

describe('sign-in', () => {
  it('a permanent token works without the token service', async () => {
    const harness = await harnessWith()
    const recorder = wire()
    const connection = harness.connect({ credentials: async () => ({ method: 'token', token: harness.sandbox.info.permanent_token }) })
    expect((await connection.workflow.get('publishers', 1)).id).toBe(1)
    expect(connection.tokens.workflow.current()?.expiresAt).toBeNull()
    expect(recorder.count('POST', TOKEN_PATH)).toBe(0)
  })

  it('a wrong password is "Sign-in rejected" with the service\'s reason', async () => {
    const harness = await harnessWith()
    const { workflow } = harness.connect({ credentials: async () => ({ method: 'password', username: 'demo', password: 'nope' }) })
    const error = await caught(workflow.get('publishers', 1))
    expect(error.code).toBe('auth')
    expect(error.message).toContain('Invalid username or password')
    expect(error.details?.httpStatus).toBe(401)
  })

  it('a wrong service id is "Sign-in rejected" with the scope reason', async () => {
    const harness = await harnessWith()
    const { workflow } = harness.connect({ settings: { serviceId: 'elsewhere' } })
    const error = await caught(workflow.get('publishers', 1))
    expect(error.code).toBe('auth')
    expect(error.message).toContain("Scope 'service_id=elsewhere' is not valid")
  })

  it('concurrent callers share one token request', async () => {
    const harness = await harnessWith()
    const recorder = wire()
    const { workflow } = harness.connect()
    const entities = await Promise.all(Array.from({ length: 12 }, (_, index) => workflow.get('publishers', index + 1)))
    expect(entities.map((entity) => entity.id)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1))
    expect(recorder.count('POST', TOKEN_PATH)).toBe(1)
  })

  it('holds separate tokens when the reporting service id differs, one when it is the same', async () => {
    const tiny = await startTinyServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      if (request.url?.includes('/API/v2/info') === true) {
        response.end(JSON.stringify({ status: 'success', key_fields: [], data_fields: [] }))
      } else {
        response.end(JSON.stringify({ id: 1, name: 'One' }))
      }
    })
    cleanups.push(() => tiny.close())
    const http = fastHttp()
    cleanups.push(() => http.close())
    const connect = (reportServiceId: string | null) =>
      createConnection({
        settings: { baseUrl: `${tiny.url}/wf`, authUrl: `${tiny.url}/auth`, reportUrl: `${tiny.url}/rep`, serviceId: 'wf-service', reportServiceId },
        credentials: async () => demoCredentials,
        http,
      })

    const split = connect('report-service')
    await split.workflow.get('publishers', 1)
    await split.reporting.info({ project_name: 'p', slicer_name: 's' })
    const scopes = tiny.requests.filter((request) => request.url.includes(TOKEN_PATH)).map((request) => new URLSearchParams(request.body).get('scope'))
    expect(scopes.sort()).toEqual(['service_id=report-service', 'service_id=wf-service'])
    const workflowCall = tiny.requests.find((request) => request.url.startsWith('/wf/'))
    const reportCall = tiny.requests.find((request) => request.url.startsWith('/rep/'))
    expect(workflowCall?.authorization).toMatch(/^Bearer tiny-wf-service-/)
    expect(reportCall?.authorization).toMatch(/^Bearer tiny-report-service-/)
    // The reporting token travels in the body too.
    expect(JSON.parse(reportCall?.body ?? '{}').token).toBe(reportCall?.authorization?.replace('Bearer ', ''))

    tiny.requests.length = 0
    const same = connect('wf-service')
    await same.workflow.get('publishers', 1)
    await same.reporting.info({ project_name: 'p', slicer_name: 's' })
    expect(tiny.requests.filter((request) => request.url.includes(TOKEN_PATH))).toHaveLength(1)
  })

  it('always asks for JSON', async () => {
    const tiny = await startTinyServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ id: 1 }))
    })
    cleanups.push(() => tiny.close())
    const http = fastHttp()
    cleanups.push(() => http.close())
    const connection = createConnection({
      settings: { baseUrl: tiny.url, authUrl: `${tiny.url}/auth`, reportUrl: tiny.url, serviceId: 'demo', reportServiceId: null },
      credentials: async () => demoCredentials,
      http,
    })
    await connection.workflow.get('publishers', 1)
    expect(tiny.requests.length).toBeGreaterThan(0)
    for (const request of tiny.requests) expect(request.accept).toBe('application/json')
  })
})
