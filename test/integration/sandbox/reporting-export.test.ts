import { strFromU8, unzipSync } from 'fflate'
import { request } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { COMMON, exportText, failure, startAt, sum, tokenFor, totalSeries, workflow } from './helpers'

let sandbox: Sandbox
let token: string
beforeAll(async () => {
  sandbox = await startAt()
  token = await tokenFor(sandbox)
})
afterAll(() => sandbox.close())
beforeEach(() => sandbox.reset())

const RANGE = { start_date: '2024-06-01', end_date: '2024-06-07' }

function csvHeader(lines: string[]): string {
  return lines[0] ?? ''
}

describe('export csv', () => {
  it('streams a csv with a header, Name columns for one key, and sensible headers', async () => {
    const { reply, lines } = await exportText(sandbox, { ...RANGE, split_by: 'publisher', data_fields: ['impressions', 'revenue', 'ctr'] })
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(reply.headers['content-disposition']).toBe('attachment; filename="demo-supply-2024-06-01-2024-06-07.csv"')
    expect(csvHeader(lines)).toBe('publisher,publisher Name,impressions,revenue,ctr')
    expect(lines).toHaveLength(41)
    const publisher = (await workflow(sandbox, 'GET', `/publishers/${lines[1]?.split(',')[0] ?? ''}/`, { token })).json as { name: string }
    expect(lines[1]?.split(',')[1]).toBe(publisher.name)
    // Default order: the first data field, biggest first.
    const impressions = lines.slice(1).map((line) => Number(line.split(',')[2]))
    expect(impressions).toEqual([...impressions].sort((a, b) => b - a))
    // The same data as time_series.
    const series = await totalSeries(sandbox, RANGE)
    expect(sum(impressions)).toBe(sum(series.rows.map((row) => row['__total__'])))
  })

  it('returns no data columns when data_fields is omitted', async () => {
    const { lines } = await exportText(sandbox, { ...RANGE, split_by: ['device_type'] })
    expect(lines).toEqual(['device_type,device_type Name', 'ctv,Connected TV', 'desktop,Desktop', 'mobile,Mobile', 'tablet,Tablet'])
  })

  it('defaults include_mappings to 1 for one key and 0 for two; both can be overridden', async () => {
    const two = await exportText(sandbox, { ...RANGE, split_by: ['publisher', 'country'], data_fields: ['clicks'] })
    expect(csvHeader(two.lines)).toBe('publisher,country,clicks')
    const twoWith = await exportText(sandbox, { ...RANGE, split_by: ['publisher', 'country'], data_fields: ['clicks'], include_mappings: 1 })
    expect(csvHeader(twoWith.lines)).toBe('publisher,publisher Name,country,country Name,clicks')
    const oneWithout = await exportText(sandbox, { ...RANGE, split_by: ['country'], data_fields: ['clicks'], include_mappings: 0 })
    expect(csvHeader(oneWithout.lines)).toBe('country,clicks')
    // page_url has no mapping, so no Name column.
    const pages = await exportText(sandbox, { ...RANGE, split_by: ['page_url'], include_mappings: 1 })
    expect(csvHeader(pages.lines)).toBe('page_url')
    expect(pages.lines[1]).toMatch(/^https:\/\/[a-z0-9-]+\.example\//)
  })

  it('adds a Total row with include_total, computing ratios from sums', async () => {
    const { lines } = await exportText(sandbox, { ...RANGE, split_by: ['device_type'], data_fields: ['clicks', 'impressions', 'ctr'], include_total: 1 })
    expect(lines).toHaveLength(6)
    const rows = lines.slice(1, 5).map((line) => line.split(','))
    const total = lines[5]?.split(',') ?? []
    expect(total.slice(0, 2)).toEqual(['Total', ''])
    expect(Number(total[2])).toBe(sum(rows.map((row) => row[2])))
    expect(Number(total[3])).toBe(sum(rows.map((row) => row[3])))
    expect(Number(total[4])).toBeCloseTo((Number(total[2]) / Number(total[3])) * 100, 5)
    const without = await exportText(sandbox, { ...RANGE, split_by: ['device_type'], data_fields: ['clicks'], include_total: 0 })
    expect(without.lines).toHaveLength(5)
  })

  it('quotes csv fields per RFC 4180', async () => {
    const { lines } = await exportText(sandbox, {
      start_date: '2023-05-12',
      end_date: '2024-06-14',
      split_by: 'brand',
      filters: [{ name: 'brand', value: ['5'], match: 'equals' }],
    })
    expect(lines[1]).toBe('5,"Hart, Lowe & ""Sons"" Outfitters"')
  })

  it('takes filters, data_filters, order_by and a time key', async () => {
    const ordered = await exportText(sandbox, {
      ...RANGE,
      split_by: ['country'],
      data_fields: ['impressions'],
      order_by: { name: 'country', direction: 'DESC' },
      include_mappings: 0,
    })
    const countries = ordered.lines.slice(1).map((line) => line.split(',')[0] ?? '')
    expect(countries).toEqual([...countries].sort().reverse())
    const filtered = await exportText(sandbox, {
      ...RANGE,
      split_by: ['country'],
      data_fields: ['impressions'],
      filters: [{ name: 'country', value: ['U'], match: 'begins with' }],
      include_mappings: 0,
    })
    expect(filtered.lines.slice(1).map((line) => line.split(',')[0])).toEqual(['US'])
    const impressions = ordered.lines.slice(1).map((line) => Number(line.split(',')[1]))
    const median = [...impressions].sort((a, b) => a - b)[8] ?? 0
    const big = await exportText(sandbox, {
      ...RANGE,
      split_by: ['country'],
      data_fields: ['impressions'],
      data_filters: [{ name: 'impressions', match: '>', value: String(median) }],
    })
    expect(big.lines.length - 1).toBe(impressions.filter((value) => value > median).length)
    const days = await exportText(sandbox, { ...RANGE, split_by: ['granularity_day'], data_fields: ['impressions'], order_by: { name: 'granularity_day' } })
    expect(days.lines.map((line) => line.split(',')[0])).toEqual([
      'granularity_day',
      '2024-06-01',
      '2024-06-02',
      '2024-06-03',
      '2024-06-04',
      '2024-06-05',
      '2024-06-06',
      '2024-06-07',
    ])
  })
})

describe('export tsv and xlsx', () => {
  it('escapes tab, newline and backslash in tsv with backslashes; csv quotes them', async () => {
    const current = (await workflow(sandbox, 'GET', '/publishers/3/', { token })).json as Record<string, unknown>
    expect((await workflow(sandbox, 'PUT', '/publishers/3/', { token, body: { ...current, name: 'Tab\there \\ back\nline' } })).status).toBe(204)
    const filter = { filters: [{ name: 'publisher', value: ['3'], match: 'equals' }] }
    const tsv = await exportText(sandbox, { ...RANGE, ...filter, split_by: ['publisher'], data_fields: ['clicks'], export_format: 'tsv' })
    expect(tsv.reply.headers['content-type']).toBe('text/tab-separated-values; charset=utf-8')
    expect(tsv.reply.headers['content-disposition']).toContain('.tsv"')
    expect(tsv.lines[0]).toBe('publisher\tpublisher Name\tclicks')
    expect(tsv.lines[1]).toMatch(/^3\tTab\\there \\\\ back\\nline\t\d+$/)
    const csv = await exportText(sandbox, { ...RANGE, ...filter, split_by: ['publisher'], data_fields: ['clicks'] })
    expect(csv.reply.text).toMatch(/\r\n3,"Tab\there \\ back\nline",\d+\r\n$/)
  })

  it('writes a valid xlsx workbook', async () => {
    const response = await request(`${sandbox.info.report_url}/API/v2/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...COMMON,
        token,
        ...RANGE,
        export_format: 'xlsx',
        split_by: ['device_type'],
        data_fields: ['impressions', 'revenue'],
        include_total: 1,
      }),
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(response.headers['content-disposition']).toContain('.xlsx"')
    const files = unzipSync(new Uint8Array(await response.body.arrayBuffer()))
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ])
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array())
    const rows = sheet.match(/<row r="\d+">/g) ?? []
    expect(rows).toHaveLength(6)
    expect(sheet).toContain('<t xml:space="preserve">device_type Name</t>')
    expect(sheet).toContain('<t xml:space="preserve">Connected TV</t>')
    expect(sheet).toContain('<t xml:space="preserve">Total</t>')
    expect(sheet).toMatch(/<c><v>\d+<\/v><\/c>/)
  })

  it('rejects formats other than xlsx, csv and tsv, and bad data_fields', async () => {
    for (const format of ['xls', 'tsv2', 'pdf']) {
      const reason = await failure(sandbox, 'export', { ...RANGE, split_by: ['country'], export_format: format })
      expect(reason).toBe(`Invalid parameter export_format: ${format} is not supported; use xlsx, csv or tsv`)
    }
    expect(await failure(sandbox, 'export', { ...RANGE, split_by: ['country'], export_format: 'csv', data_fields: ['impressions', 'profit'] })).toContain(
      'data_fields[1]',
    )
    expect(await failure(sandbox, 'export', { ...RANGE, split_by: [], export_format: 'csv' })).toContain('split_by')
    const viewer = await tokenFor(sandbox, 'viewer')
    expect(
      await failure(sandbox, 'export', { ...RANGE, token: viewer, split_by: ['country'], export_format: 'csv', data_fields: ['my_margin_estimate'] }),
    ).toContain('my_margin_estimate')
  })
})
