import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { EventName } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { connectEvents } from '../../../main/handlers/events'
import { createHandlers, type Handlers } from '../../../main/handlers/handlers'
import { createTestServices, type TestServices } from '../../support/services'
import { startStubServer, type StubServer } from './support'

/**
 * What a hostile (or broken) platform answers must reach the page only as a short, clean
 * sentence and the few detail fields the app knows: no raw body, no control characters, and
 * never a secret the request carried, whatever the server quotes back.
 */
const PASSWORD = 'hostile-test-PASSWORD-51c7e0'
const TOKEN = 'ISSUED-token-d41d8cd98f00b204'
/** What an outcome may weigh: a sentence, a few fields, room to spare. */
const MAX_OUTCOME_CHARS = 4_000
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

type Part = 'token' | 'workflow' | 'reporting'
/** How the hostile server answers the part under test; the other parts work. */
let hostileAnswer: { part: Part; status: number; contentType: string; body: (sent: string) => string } | null = null

let server: StubServer
let services: TestServices
let handlers: Handlers
let profileId: string

function answer(part: Part, response: ServerResponse, sent: string, otherwise: () => void): void {
  if (hostileAnswer?.part !== part) return otherwise()
  response.writeHead(hostileAnswer.status, { 'content-type': hostileAnswer.contentType })
  response.end(hostileAnswer.body(sent))
}

beforeAll(async () => {
  server = await startStubServer((request, response, body) => {
    const url = request.url ?? ''
    // Everything the request carried, quoted back as a careless server would.
    const sent = `${decodeURIComponent(body.replaceAll('+', ' '))} ${request.headers.authorization ?? ''}`
    const json = (value: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(value))
    }
    if (url.endsWith('/oauth2/token/')) return answer('token', response, sent, () => json({ access_token: TOKEN, expires_in: 3600 }))
    if (url.includes('/API/v2/')) return answer('reporting', response, sent, () => json({ status: 'success', data_fields: [], key_fields: [] }))
    return answer('workflow', response, sent, () => json({ count: 0, next: null, previous: null, results: [] }))
  })
  services = await createTestServices()
  handlers = createHandlers(services, { nativeSaveDialog: false })
  const created = await services.profiles.create({
    name: 'Hostile',
    baseUrl: `${server.url}/wf`,
    authUrl: `${server.url}/auth`,
    reportUrl: `${server.url}/rep`,
    serviceId: '1',
    defaultProject: 'demo',
    defaultSlicer: 'supply',
    auth: { method: 'password', username: 'ops', password: PASSWORD },
  })
  profileId = created.id
})
afterAll(async () => {
  await services.close()
  await server.close()
})
beforeEach(() => {
  hostileAnswer = null
  // Each call signs in afresh, so the token service is asked every time.
  services.workspace.forget(profileId)
})

/** Every string inside a value, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings)
  return []
}

function expectClean(outcome: unknown): void {
  const text = JSON.stringify(outcome)
  expect(text.length).toBeLessThan(MAX_OUTCOME_CHARS)
  expect(text).not.toContain(PASSWORD)
  expect(text).not.toContain(encodeURIComponent(PASSWORD))
  expect(text).not.toContain(TOKEN)
  for (const value of strings(outcome)) expect(value).not.toMatch(CONTROL)
}

/** The calls that reach each part, as the page makes them. */
const calls: Record<Part, () => Promise<unknown>> = {
  token: () => dispatch(handlers, 'entities:get', { profileId, kind: 'publishers', id: 1 }),
  workflow: () => dispatch(handlers, 'entities:get', { profileId, kind: 'publishers', id: 1 }),
  reporting: () => dispatch(handlers, 'reports:info', { profileId, project: 'demo', report: 'supply', refresh: true }),
}

const hostileBodies: Array<[string, number, string, (sent: string) => string]> = [
  ['a huge HTML page', 502, 'text/html', () => `<!doctype html><html><body>${'<p>Bad gateway</p>'.repeat(150_000)}</body></html>`],
  ['a huge JSON reason', 400, 'application/json', () => JSON.stringify({ detail: `Rejected: ${'very long reason '.repeat(3_500)}` })],
  [
    'a reason full of control characters',
    403,
    'application/json',
    () => JSON.stringify({ detail: 'Denied\u001b[2J\u001b[31m red\u0000 nul\r\nInjected: line\u202e reversed\u0007' }),
  ],
  ['a reason quoting the request back', 400, 'application/json', (sent) => JSON.stringify({ detail: `Bad request: ${sent}`, error_description: sent })],
  ['a plain-text body quoting the request back', 500, 'text/plain', (sent) => `Internal error while handling ${sent}`],
]

describe("a hostile server's error reaches the page bounded and clean", () => {
  for (const part of ['token', 'workflow', 'reporting'] as const) {
    it.each(hostileBodies)(`${part}: %s`, async (_what, status, contentType, body) => {
      hostileAnswer = { part, status, contentType, body: part === 'reporting' ? (sent) => JSON.stringify({ status: 'bad_request', reason: body(sent) }) : body }
      const outcome = (await calls[part]()) as { ok: boolean; error?: { message: string; details?: Record<string, unknown> } }
      expect(outcome.ok).toBe(false)
      expect(outcome.error?.message.length).toBeGreaterThan(10)
      expect(outcome.error?.details).not.toHaveProperty('body')
      expectClean(outcome)
    })
  }

  it('the connection test carries the same clean errors in its answer', async () => {
    hostileAnswer = {
      part: 'token',
      status: 401,
      contentType: 'application/json',
      body: (sent) => JSON.stringify({ error: 'invalid_grant', error_description: `Wrong password \u001b[31m${sent}` }),
    }
    const outcome = await dispatch(handlers, 'profiles:test', { id: profileId })
    expect(outcome).toMatchObject({ ok: true, value: { workflow: { ok: false, error: { code: 'auth' } } } })
    expectClean(outcome)
  })

  it('the page still gets what it uses: the status, the API status, field errors and the wait', async () => {
    hostileAnswer = {
      part: 'workflow',
      status: 400,
      contentType: 'application/json',
      body: () => JSON.stringify({ name: ['This field is required.'], url: ['Enter a valid URL.'] }),
    }
    const fields = await dispatch(handlers, 'entities:create', { profileId, kind: 'publishers', entity: { name: '' } })
    expect(fields).toMatchObject({
      ok: false,
      error: { code: 'validation', details: { httpStatus: 400, fields: { name: ['This field is required.'], url: ['Enter a valid URL.'] } } },
    })

    hostileAnswer = { part: 'reporting', status: 200, contentType: 'application/json', body: () => JSON.stringify({ status: 'timeout', reason: 'Took 300 s' }) }
    const reporting = await calls.reporting()
    expect(reporting).toMatchObject({ ok: false, error: { code: 'timeout', details: { apiStatus: 'timeout', reason: 'Took 300 s' } } })
  })
})

describe('events are checked against the contract before they reach the page', () => {
  it('a payload that does not match is dropped and logged; one that does is sent without extra fields', () => {
    const sent: Array<{ event: EventName; payload: unknown }> = []
    const logged: string[] = []
    const disconnect = connectEvents(services, (event, payload) => sent.push({ event, payload }), { log: (message) => logged.push(message) })
    try {
      services.events.emit('onThrottled', { profileId: null, waitSeconds: 'soon', url: 'x' } as never)
      services.events.emit('onThrottled', { profileId: null, waitSeconds: 3, url: `${server.url}/wf/publishers/`, password: PASSWORD } as never)
      expect(sent).toEqual([{ event: 'onThrottled', payload: { profileId: null, waitSeconds: 3, url: `${server.url}/wf/publishers/` } }])
      expect(logged).toEqual([expect.stringContaining('onThrottled')])
    } finally {
      disconnect()
    }
  })
})
