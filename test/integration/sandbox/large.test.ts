import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { COMMON, FIRST_DATE, LAST_DATE, failure, startAt, success, tokenFor, totalSeries, workflow } from './helpers'

/** The one large sandbox of the suite: 100,000 extra publishers and over 1.5 million page URLs. */
let sandbox: Sandbox
let token: string
beforeAll(async () => {
  sandbox = await startAt({ scale: 'large' })
  token = await tokenFor(sandbox)
})
afterAll(() => sandbox.close())

const FULL = { start_date: FIRST_DATE, end_date: LAST_DATE }

interface Streamed {
  lines: number
  first: string
  lastLines: string[]
  impressions: number
  headers: Record<string, string | string[] | undefined>
}

/** Streams an export, counting lines and summing the last column, without holding the file. */
async function streamExport(body: Record<string, unknown>): Promise<Streamed> {
  const response = await request(`${sandbox.info.report_url}/API/v2/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...COMMON, token, ...FULL, ...body }),
  })
  expect(response.statusCode).toBe(200)
  const separator = body['export_format'] === 'tsv' ? '\t' : ','
  let lines = 0
  let first = ''
  let impressions = 0
  let rest = ''
  const tail: string[] = []
  for await (const chunk of response.body) {
    const parts = (rest + (chunk as Buffer).toString('utf8')).split('\n')
    rest = parts.pop() ?? ''
    for (const part of parts) {
      const line = part.replace(/\r$/, '')
      if (lines === 0) first = line
      else if (!line.startsWith('Others') && !line.startsWith('Total')) impressions += Number(line.slice(line.lastIndexOf(separator) + 1))
      lines++
      tail.push(line)
      if (tail.length > 3) tail.shift()
    }
  }
  return { lines, first, lastLines: tail, impressions, headers: response.headers }
}

describe('large scale', { timeout: 120_000 }, () => {
  it('pages through 100,040 publishers', async () => {
    const first = (await workflow(sandbox, 'GET', '/publishers/?page_size=1000', { token })).json as { count: number; next: string }
    expect(first.count).toBe(100_040)
    expect(first.next).toBe(`${sandbox.info.base_url}/publishers/?page_size=1000&page=2`)
    const last = (await workflow(sandbox, 'GET', '/publishers/?page_size=1000&page=101', { token })).json as {
      results: Array<{ id: number; name: string }>
      next: string | null
    }
    expect(last.results).toHaveLength(40)
    expect(last.next).toBeNull()
    expect(last.results[39]?.id).toBe(100_040)
    expect(last.results[39]?.name).toMatch(/ 100040$/)
    expect((await workflow(sandbox, 'GET', '/publishers/?page_size=1000&page=102', { token })).status).toBe(404)
  })

  it('keeps external ids unique among the generated publishers', async () => {
    expect(
      (await workflow(sandbox, 'POST', '/publishers/', { token, body: { name: 'Clash', url: 'https://clash.example', external_id: 'PUB-050000' } })).status,
    ).toBe(409)
    expect((await workflow(sandbox, 'DELETE', '/publishers/50000/', { token })).status).toBe(204)
    const created = await workflow(sandbox, 'POST', '/publishers/', { token, body: { name: 'Heir', url: 'https://heir.example', external_id: 'PUB-050000' } })
    expect(created.status).toBe(201)
    expect((created.json as { id: number }).id).toBe(100_041)
    sandbox.reset()
  })

  it('caps a csv export at 1,000,000 rows plus one Others row that sums the rest', async () => {
    const result = await streamExport({ export_format: 'csv', split_by: ['page_url'], data_fields: ['impressions'] })
    // Well over the cap, so it applies (the demo's weekends hold fewer records since its weekly shape: ~1.48 million).
    expect(Number(result.headers['x-matching-rows'])).toBeGreaterThan(1_400_000)
    expect(result.first).toBe('page_url,impressions')
    expect(result.lines).toBe(1 + 1_000_000 + 1)
    const others = result.lastLines[2] ?? ''
    expect(others).toMatch(/^Others,\d+$/)
    const total = await totalSeries(sandbox, { ...FULL, granularity: 'year' })
    const expected = total.rows.reduce((sum, row) => sum + Number(row['__total__']), 0)
    expect(result.impressions + Number(others.split(',')[1])).toBe(expected)
  })

  it('caps tsv the same way, with the Total row after Others', async () => {
    const result = await streamExport({ export_format: 'tsv', split_by: ['page_url'], data_fields: ['impressions'], include_total: 1 })
    expect(result.lines).toBe(1 + 1_000_000 + 2)
    expect(result.lastLines[1]).toMatch(/^Others\t\d+$/)
    expect(result.lastLines[2]).toMatch(/^Total\t\d+$/)
  })

  it('rejects a multi-key export over 1,000,000 rows', async () => {
    const reason = await failure(sandbox, 'export', { ...FULL, export_format: 'csv', split_by: ['page_url', 'device_type'] })
    expect(reason).toContain('split_by')
    expect(reason).toContain('1000000')
  })

  it('processes 1,000,000 audience records by default', async () => {
    interface Audience {
      total: { records_found: number; confidence_range?: number; data: Array<{ name: string; value: number }> }
    }
    const byDefault = await success<Audience>(sandbox, 'audience', { ...FULL, split_by: [] })
    expect(byDefault.total.records_found).toBeGreaterThan(1_000_000)
    expect(byDefault.total.confidence_range).toBeGreaterThan(0)
    expect(await success<Audience>(sandbox, 'audience', { ...FULL, split_by: [], audience_rows_limit: 1_000_000 })).toEqual(byDefault)
    const everything = await success<Audience>(sandbox, 'audience', { ...FULL, split_by: [], audience_rows_limit: byDefault.total.records_found })
    expect(everything.total.confidence_range).toBeUndefined()
  })
})
