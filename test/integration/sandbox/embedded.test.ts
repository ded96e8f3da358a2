import { request } from 'undici'
import type { Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../main/sandbox/index'
import type { Sandbox } from '../../../main/sandbox/index'
import { createConnection } from '../../../main/services/connection/connection'
import { startDemoWorkspace } from '../../../main/services/connection/demo'
import { createHttpClient } from '../../../main/services/http/client'
import { COMMON, NOW, passwordGrant, startAt } from './helpers'

/**
 * The app's embedded demo: other programs on the machine and web pages in a browser can reach
 * loopback, so it has per-run secrets, no controls, JSON bodies only and a Host check.
 */
let sandbox: Sandbox
let origin: string
beforeAll(async () => {
  sandbox = await startAt({ embedded: true })
  origin = `http://127.0.0.1:${sandbox.port}`
})
afterAll(() => sandbox.close())

interface Raw {
  status: number
  json: Record<string, unknown> | null
}

/** A request with exactly the headers given (undici adds Host from the URL unless one is given). */
async function raw(path: string, options: { method?: Dispatcher.HttpMethod; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  const response = await request(`${origin}${path}`, { method: options.method ?? 'GET', headers: options.headers ?? {}, body: options.body })
  const text = await response.body.text()
  let json: Record<string, unknown> | null = null
  try {
    json = JSON.parse(text) as Record<string, unknown>
  } catch {
    json = null
  }
  return { status: response.statusCode, json }
}

const bearer = (): Record<string, string> => ({ authorization: `Bearer ${sandbox.info.permanent_token}` })
const timeSeries = (): string =>
  JSON.stringify({
    ...COMMON,
    token: sandbox.info.permanent_token,
    granularity: 'day',
    split_by: [],
    chart_lines: ['__total__'],
    data_field: 'impressions',
    start_date: '-3d',
    end_date: 'yesterday',
  })
const publisherCount = async (): Promise<number> => Number((await raw('/workflow/v1/publishers/?page_size=1', { headers: bearer() })).json?.['count'])

describe('embedded credentials', () => {
  it('are random per run, never the fixed demo strings, and come back in the start result', async () => {
    const other = await startSandbox({ embedded: true, now: () => NOW })
    try {
      for (const info of [sandbox.info, other.info]) {
        expect(info.username).toBe('demo')
        expect(info.password).not.toBe('demo')
        expect(info.viewer_password).not.toBe('viewer')
        expect(info.permanent_token).not.toBe('demo-permanent-token')
        for (const secret of [info.password, info.viewer_password, info.permanent_token]) expect(secret.length).toBeGreaterThanOrEqual(32)
      }
      expect(other.info.password).not.toBe(sandbox.info.password)
      expect(other.info.viewer_password).not.toBe(sandbox.info.viewer_password)
      expect(other.info.permanent_token).not.toBe(sandbox.info.permanent_token)
    } finally {
      await other.close()
    }
  })

  it('sign in with the run password and token; the fixed demo ones are refused', async () => {
    const signIn = (username: string, password: string) => passwordGrant(sandbox, { grant_type: 'password', username, password, scope: 'service_id=demo' })
    expect((await signIn('demo', sandbox.info.password)).status).toBe(200)
    expect((await signIn('viewer', sandbox.info.viewer_password)).status).toBe(200)
    expect((await signIn('demo', 'demo')).status).toBe(401)
    expect((await signIn('viewer', 'viewer')).status).toBe(401)
    expect((await raw('/workflow/v1/publishers/1/', { headers: bearer() })).status).toBe(200)
    expect((await raw('/workflow/v1/publishers/1/', { headers: { authorization: 'Bearer demo-permanent-token' } })).status).toBe(401)
  })
})

describe('embedded controls', () => {
  it('serves no /__sandbox/* route', async () => {
    expect((await raw('/__sandbox/faults')).status).toBe(404)
    expect(
      (await raw('/__sandbox/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fail_rate: 1 }) })).status,
    ).toBe(404)
    expect((await raw('/__sandbox/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404)
    // Nothing was injected: a request still succeeds.
    expect((await raw('/workflow/v1/publishers/1/', { headers: bearer() })).status).toBe(200)
  })

  it('the standalone sandbox keeps them', async () => {
    const standalone = await startAt()
    try {
      const response = await request(`${standalone.info.base_url.replace(/\/workflow\/v1$/, '')}/__sandbox/faults`)
      expect(response.statusCode).toBe(200)
      await response.body.dump()
      expect(standalone.info.password).toBe('demo')
      expect(standalone.info.permanent_token).toBe('demo-permanent-token')
    } finally {
      await standalone.close()
    }
  })
})

describe('embedded request bodies', () => {
  it('refuses a text/plain reporting POST even with a valid token in it', async () => {
    const refused = await raw('/report/API/v2/time_series', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json' },
      body: timeSeries(),
    })
    expect(refused.status).toBe(415)
    expect(String(refused.json?.['detail'])).toContain('application/json')
    const withoutType = await raw('/report/API/v2/time_series', { method: 'POST', headers: { accept: 'application/json' }, body: timeSeries() })
    expect(withoutType.status).toBe(415)
    const accepted = await raw('/report/API/v2/time_series', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
      body: timeSeries(),
    })
    expect(accepted.status).toBe(200)
    expect(accepted.json?.['status']).toBe('success')
  })

  it('refuses form and text bodies on the Workflow API, creating nothing', async () => {
    const before = await publisherCount()
    const entity = JSON.stringify({ name: 'Planted', url: 'https://planted.example' })
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp']) {
      const refused = await raw('/workflow/v1/publishers/', { method: 'POST', headers: { ...bearer(), 'content-type': type }, body: entity })
      expect(refused.status, type).toBe(415)
    }
    expect(await publisherCount()).toBe(before)
    const created = await raw('/workflow/v1/publishers/', { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: entity })
    expect(created.status).toBe(201)
    expect(await publisherCount()).toBe(before + 1)
  })

  it('still takes the OAuth2 form body at the token endpoint', async () => {
    const grant = await passwordGrant(sandbox, { grant_type: 'password', username: 'demo', password: sandbox.info.password, scope: 'service_id=demo' })
    expect(grant.status).toBe(200)
  })
})

describe('embedded Host check', () => {
  it('answers only to 127.0.0.1:<port> and localhost:<port>', async () => {
    expect((await raw('/workflow/v1/publishers/1/', { headers: { ...bearer(), host: `127.0.0.1:${sandbox.port}` } })).status).toBe(200)
    expect((await raw('/workflow/v1/publishers/1/', { headers: { ...bearer(), host: `LOCALHOST:${sandbox.port}` } })).status).toBe(200)
    for (const host of [
      'evil.example',
      `evil.example:${sandbox.port}`,
      `127.0.0.1:${sandbox.port + 1}`,
      '127.0.0.1',
      `[::1]:${sandbox.port}`,
      `localhost.evil.example:${sandbox.port}`,
    ]) {
      const refused = await raw('/workflow/v1/publishers/1/', { headers: { ...bearer(), host } })
      expect(refused.status, host).toBe(421)
      expect(refused.json?.['detail'], host).toMatch(/does not answer for host/)
    }
  })

  it('checks it before anything else: token, reporting and control paths alike', async () => {
    const host = { host: 'rebound.example' }
    expect(
      (
        await raw('/auth/oauth2/token/', {
          method: 'POST',
          headers: { ...host, 'content-type': 'application/x-www-form-urlencoded' },
          body: `grant_type=password&username=demo&password=${encodeURIComponent(sandbox.info.password)}&scope=service_id%3Ddemo`,
        })
      ).status,
    ).toBe(421)
    expect(
      (await raw('/report/API/v2/time_series', { method: 'POST', headers: { ...host, 'content-type': 'application/json' }, body: timeSeries() })).status,
    ).toBe(421)
    expect((await raw('/__sandbox/faults', { headers: host })).status).toBe(421)
  })
})

describe('the demo workspace over an embedded sandbox', () => {
  it('signs in with the credentials of the start result and uses both APIs with the real clients', async () => {
    const demo = await startDemoWorkspace({ startSandbox: ({ port }) => startSandbox({ port, embedded: true }) })
    const http = createHttpClient({ retry: { maxRetries: 0 } })
    try {
      expect(demo.credentials).toMatchObject({ method: 'password', username: 'demo' })
      expect(demo.credentials).not.toEqual({ method: 'password', username: 'demo', password: 'demo' })
      const connection = createConnection({ settings: demo.settings, credentials: async () => demo.credentials, http })
      const result = await connection.testConnection({ report: demo.reportTarget })
      expect(result.workflow.ok).toBe(true)
      expect(result.reporting.ok).toBe(true)
      const created = await connection.workflow.create('publishers', { name: 'Embedded', url: 'https://embedded.example' })
      expect(created['name']).toBe('Embedded')
      const series = await connection.reporting.timeSeries({
        ...demo.reportTarget,
        granularity: 'day',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        start_date: '-2d',
        end_date: 'yesterday',
      })
      expect(series.rows).toHaveLength(2)
    } finally {
      await http.close()
      await demo.stop()
    }
  })
})

describe('embedded listening address', () => {
  it('is 127.0.0.1 or localhost only', async () => {
    await expect(startSandbox({ embedded: true, host: '0.0.0.0' })).rejects.toThrow(/127\.0\.0\.1 or localhost only/)
  })
})
