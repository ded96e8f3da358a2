import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { COMMON, startAt, tokenFor, workflow } from './helpers'

let first: Sandbox
let second: Sandbox
let otherSeed: Sandbox
beforeAll(async () => {
  ;[first, second, otherSeed] = await Promise.all([startAt({ seed: 11 }), startAt({ seed: 11 }), startAt({ seed: 12 })])
})
afterAll(() => Promise.all([first.close(), second.close(), otherSeed.close()]))

async function download(sandbox: Sandbox, body: Record<string, unknown>): Promise<Buffer> {
  const response = await request(`${sandbox.info.report_url}/API/v2/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...COMMON, token: sandbox.info.permanent_token, start_date: '2024-01-01', end_date: '2024-03-31', ...body }),
  })
  expect(response.statusCode).toBe(200)
  return Buffer.from(await response.body.arrayBuffer())
}

const EXPORTS: Array<Record<string, unknown>> = [
  { export_format: 'csv', split_by: ['page_url'], data_fields: ['impressions', 'revenue', 'ecpm'] },
  { export_format: 'tsv', split_by: ['brand', 'country'], data_fields: ['clicks', 'margin'], include_total: 1 },
  { export_format: 'xlsx', split_by: ['publisher'], data_fields: ['requests', 'fill_rate'] },
]

describe('determinism', () => {
  it('gives byte-identical exports for the same seed', async () => {
    for (const body of EXPORTS) {
      const [a, b] = await Promise.all([download(first, body), download(second, body)])
      expect(a.length, String(body['export_format'])).toBeGreaterThan(1000)
      expect(a.equals(b), String(body['export_format'])).toBe(true)
    }
  })

  it('gives different data for a different seed', async () => {
    for (const body of EXPORTS) {
      const [a, b] = await Promise.all([download(first, body), download(otherSeed, body)])
      expect(a.equals(b), String(body['export_format'])).toBe(false)
    }
  })

  it('seeds the Workflow entities too', async () => {
    const list = async (sandbox: Sandbox): Promise<unknown> =>
      (await workflow(sandbox, 'GET', '/brands/?page_size=1000', { token: await tokenFor(sandbox) })).json
    expect(await list(first)).toEqual(await list(second))
    expect(await list(first)).not.toEqual(await list(otherSeed))
  })
})
