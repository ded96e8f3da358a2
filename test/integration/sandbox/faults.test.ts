import { request } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { COMMON, report, startAt, tokenFor, workflow } from './helpers'

let sandbox: Sandbox
let token: string

beforeAll(async () => {
  sandbox = await startAt()
  token = await tokenFor(sandbox)
})
afterAll(() => sandbox.close())
beforeEach(() => sandbox.reset())

async function control(path: string, body?: unknown, method = 'POST'): Promise<{ status: number; json: unknown }> {
  const origin = new URL(sandbox.info.base_url).origin
  const response = await request(`${origin}/__sandbox/${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  })
  return { status: response.statusCode, json: await response.body.json() }
}

const info = (): ReturnType<typeof report> => report(sandbox, 'info', { ...COMMON, token })

describe('faults over HTTP', () => {
  it('sets faults with POST /__sandbox/faults and reports them', async () => {
    const set = await control('faults', { latency_ms: 5, throttle_per_s: 100 })
    expect(set.status).toBe(200)
    expect(set.json).toMatchObject({ latency_ms: 5, throttle_per_s: 100, fail_rate: 0, token_ttl_s: 3600 })
    expect((await control('faults', undefined, 'GET')).json).toMatchObject({ latency_ms: 5 })
    expect((await workflow(sandbox, 'GET', '/brands/', { token })).status).toBe(200)
  })

  it('rejects bad fault values with 400', async () => {
    expect((await control('faults', { fail_rate: 2 })).status).toBe(400)
    expect((await control('faults', { unknown_fault: 1 })).status).toBe(400)
    expect((await control('faults', { latency_ms: -1 })).status).toBe(400)
    expect(() => sandbox.setFaults({ fail_rate: -0.5 })).toThrow()
  })

  it('fails a deterministic share of requests: fail_rate 0.5 fails every second one', async () => {
    await control('faults', { fail_rate: 0.5 })
    const statuses: number[] = []
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await workflow(sandbox, 'GET', '/bidders/', { token })).status)
    expect(statuses).toEqual([200, 500, 200, 500, 200, 500])
  })

  it('makes reporting answer internal_error with fail_rate 1', async () => {
    await control('faults', { fail_rate: 1 })
    const result = await info()
    expect(result.status).toBe(500)
    expect(result.json).toMatchObject({ status: 'internal_error' })
    expect(Object.keys(result.json as object).sort()).toEqual(['reason', 'status'])
  })

  it('forces a reporting status with report_status', async () => {
    await control('faults', { report_status: 'timeout' })
    const timeout = await info()
    expect(timeout.status).toBe(504)
    expect(timeout.json).toMatchObject({ status: 'timeout' })
    sandbox.setFaults({ report_status: 'internal_error' })
    expect((await info()).json).toMatchObject({ status: 'internal_error' })
    sandbox.setFaults({ report_status: null })
    expect((await info()).json).toMatchObject({ status: 'success' })
  })

  it('throttles reporting with 429, Retry-After and an internal_error body', async () => {
    sandbox.setFaults({ throttle_per_s: 1 })
    expect((await info()).status).toBe(200)
    const throttled = await info()
    expect(throttled.status).toBe(429)
    expect(String(throttled.headers['retry-after'])).toMatch(/^[1-9]\d*$/)
    expect(throttled.json).toMatchObject({ status: 'internal_error' })
    expect((throttled.json as { reason: string }).reason).toMatch(/Too many requests; retry after \d+ s/)
  })

  it('cuts an export download after drop_export_after_bytes', async () => {
    sandbox.setFaults({ drop_export_after_bytes: 2000 })
    const response = await request(`${sandbox.info.report_url}/API/v2/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...COMMON,
        token,
        export_format: 'csv',
        split_by: ['ad_unit'],
        data_fields: ['impressions'],
        start_date: '-30d',
        end_date: 'yesterday',
      }),
    })
    expect(response.statusCode).toBe(200)
    await expect(response.body.text()).rejects.toThrow()
  })

  it('resets data and faults with POST /__sandbox/reset', async () => {
    await control('faults', { fail_rate: 1 })
    const reset = await control('reset')
    expect(reset.status).toBe(200)
    expect((await control('faults', undefined, 'GET')).json).toMatchObject({ fail_rate: 0 })
    expect((await workflow(sandbox, 'DELETE', '/bidders/25/', { token })).status).toBe(204)
    expect((await workflow(sandbox, 'GET', '/bidders/25/', { token })).status).toBe(404)
    await control('reset')
    expect((await workflow(sandbox, 'GET', '/bidders/25/', { token })).status).toBe(200)
    expect((await control('reset', undefined, 'GET')).status).toBe(405)
  })
})
