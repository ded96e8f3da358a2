import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { failure, startAt, success, sum, tokenFor, totalSeries, workflow } from './helpers'
import type { TimeSeriesBody } from './helpers'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startAt()
})
afterAll(() => sandbox.close())

const RANGE = { start_date: '2024-06-01', end_date: '2024-06-07' }
const COUNTRIES = ['AU', 'BR', 'CA', 'CH', 'DE', 'ES', 'FR', 'GB', 'IN', 'IT', 'JP', 'MX', 'NL', 'PL', 'SE', 'US']

function series(body: Record<string, unknown>): Promise<TimeSeriesBody> {
  return success<TimeSeriesBody>(sandbox, 'time_series', {
    granularity: 'day',
    split_by: [],
    chart_lines: ['__total__'],
    data_field: 'impressions',
    ...RANGE,
    ...body,
  })
}

/** Sum of one line over all rows. */
function lineTotal(body: TimeSeriesBody, line: string): number {
  return sum(body.rows.map((row) => row[line]))
}

describe('granularity', () => {
  it('formats __time__ per granularity, long and short names alike', async () => {
    const expectations: Array<[string, string, string, string[]]> = [
      ['granularity_hour', '2024-06-14', '2024-06-14', ['2024-06-14 00:00', '2024-06-14 23:00']],
      ['granularity_day', '2024-06-01', '2024-06-03', ['2024-06-01', '2024-06-03']],
      ['granularity_week', '2023-12-31', '2024-01-08', ['2023-W52', '2024-W02']],
      ['granularity_month', '2024-01-15', '2024-03-01', ['2024-01', '2024-03']],
      ['granularity_quarter', '2023-12-01', '2024-06-14', ['2023 Q4', '2024 Q2']],
      ['granularity_year', '2023-06-01', '2024-06-14', ['2023', '2024']],
    ]
    for (const [granularity, start, end, [first, last]] of expectations) {
      const long = await series({ granularity, start_date: start, end_date: end })
      const short = await series({ granularity: granularity.replace('granularity_', ''), start_date: start, end_date: end })
      expect(long.rows[0]?.__time__, granularity).toBe(first)
      expect(long.rows[long.rows.length - 1]?.__time__, granularity).toBe(last)
      expect(short.rows, granularity).toEqual(long.rows)
    }
    expect((await series({ granularity: 'hour', start_date: '2024-06-14', end_date: '2024-06-14' })).rows).toHaveLength(24)
    expect((await series({ granularity: 'week', start_date: '2023-12-31', end_date: '2024-01-08' })).rows.map((row) => row.__time__)).toEqual([
      '2023-W52',
      '2024-W01',
      '2024-W02',
    ])
  })

  it('gives each row a human __mapping__', async () => {
    const day = await series({ start_date: '2024-06-14', end_date: '2024-06-14' })
    expect(day.rows[0]?.__mapping__).toBe('Fri, 14 Jun 2024')
    const month = await series({ granularity: 'month', start_date: '2024-05-01', end_date: '2024-05-31' })
    expect(month.rows[0]?.__mapping__).toBe('May 2024')
  })

  it('adds up: the days of a month sum to the month', async () => {
    const days = await series({ start_date: '2024-05-01', end_date: '2024-05-31' })
    const month = await series({ granularity: 'month', start_date: '2024-05-01', end_date: '2024-05-31' })
    expect(days.rows).toHaveLength(31)
    expect(month.rows[0]?.['__total__']).toBe(lineTotal(days, '__total__'))
  })

  it('computes derived fields from aggregated sums, not averages', async () => {
    const ctr = await series({ data_field: 'ctr', start_date: '2024-06-01', end_date: '2024-06-01' })
    const clicks = await series({ data_field: 'clicks', start_date: '2024-06-01', end_date: '2024-06-01' })
    const impressions = await series({ start_date: '2024-06-01', end_date: '2024-06-01' })
    const expected = (Number(clicks.rows[0]?.['__total__']) / Number(impressions.rows[0]?.['__total__'])) * 100
    expect(Number(ctr.rows[0]?.['__total__'])).toBeCloseTo(expected, 5)
  })

  it('uses a key field as granularity: top 30 by default, limit up to 10000', async () => {
    const byUnit = await series({ granularity: 'ad_unit', data_field: 'revenue' })
    expect(byUnit.rows).toHaveLength(30)
    const values = byUnit.rows.map((row) => Number(row['__total__']))
    expect(values).toEqual([...values].sort((a, b) => b - a))
    expect(byUnit.rows[0]?.__mapping__).toMatch(/_/)
    expect((await series({ granularity: 'ad_unit', limit: 5 })).rows).toHaveLength(5)
    expect((await series({ granularity: 'ad_unit', limit: 10000, start_date: '2023-05-12', end_date: '2024-06-14' })).rows).toHaveLength(400)
    expect((await series({ granularity: 'country', limit: 10000 })).rows.map((row) => row.__time__).sort()).toEqual(COUNTRIES)
    // limit only applies to key fields: 7 days stay 7 rows.
    expect((await series({ limit: 2 })).rows).toHaveLength(7)
    expect(
      await failure(sandbox, 'time_series', {
        granularity: 'ad_unit',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        ...RANGE,
        limit: 10001,
      }),
    ).toContain('limit')
    expect(
      await failure(sandbox, 'time_series', {
        granularity: 'ad_unit',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        ...RANGE,
        limit: 0,
      }),
    ).toContain('limit')
  })

  it('rejects unknown granularity, data_field and split_by, naming them', async () => {
    const base = { granularity: 'day', split_by: [], chart_lines: ['__total__'], data_field: 'impressions', ...RANGE }
    expect(await failure(sandbox, 'time_series', { ...base, granularity: 'fortnight' })).toContain('granularity')
    expect(await failure(sandbox, 'time_series', { ...base, data_field: 'profit' })).toContain('data_field')
    expect(await failure(sandbox, 'time_series', { ...base, split_by: ['colour'], chart_lines: ['red'] })).toContain('split_by[0]')
    expect(await failure(sandbox, 'time_series', { ...base, chart_lines: undefined })).toContain('chart_lines')
  })
})

describe('chart lines', () => {
  it('plots split values, and __total__ is the sum of all of them', async () => {
    const devices = await series({ split_by: ['device_type'], chart_lines: ['ctv', 'desktop', 'mobile', 'tablet', '__total__'] })
    for (const row of devices.rows) expect(sum([row['ctv'], row['desktop'], row['mobile'], row['tablet']])).toBe(row['__total__'])
    expect(devices.mappings).toEqual({ device_type: { ctv: 'Connected TV', desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' } })
  })

  it('joins several split_by values with U+0002', async () => {
    const lines = COUNTRIES.map((country) => `1\u0002${country}`)
    const both = await series({ split_by: ['publisher', 'country'], chart_lines: lines })
    const single = await series({ split_by: ['publisher'], chart_lines: ['1'] })
    both.rows.forEach((row, index) => expect(sum(lines.map((line) => row[line]))).toBe(single.rows[index]?.['1']))
    expect(Object.keys(both.mappings)).toEqual(['publisher', 'country'])
    expect(both.mappings['country']?.['GB']).toBe('United Kingdom')
    expect(
      await failure(sandbox, 'time_series', {
        granularity: 'day',
        split_by: ['publisher', 'country'],
        chart_lines: ['1'],
        data_field: 'impressions',
        ...RANGE,
      }),
    ).toContain('U+0002')
    expect(await failure(sandbox, 'time_series', { granularity: 'day', split_by: [], chart_lines: ['1'], data_field: 'impressions', ...RANGE })).toContain(
      'chart_lines[0]',
    )
  })

  it('allows 50 lines and rejects 51', async () => {
    const fifty = Array.from({ length: 50 }, (_, index) => String(index + 1))
    const body = await series({ split_by: ['ad_unit'], chart_lines: fifty })
    expect(Object.keys(body.rows[0] ?? {}).filter((key) => !key.startsWith('__'))).toHaveLength(50)
    expect(
      await failure(sandbox, 'time_series', { granularity: 'day', split_by: ['ad_unit'], chart_lines: [...fifty, '51'], data_field: 'impressions', ...RANGE }),
    ).toContain('chart_lines')
  })

  it('maps entity ids to their current Workflow names; unknown values map to null and stay at zero', async () => {
    const token = await tokenFor(sandbox)
    const publisher = (await workflow(sandbox, 'GET', '/publishers/2/', { token })).json as { name: string }
    const body = await series({ split_by: ['publisher'], chart_lines: ['2', '999'] })
    expect(body.mappings['publisher']).toEqual({ '2': publisher.name, '999': null })
    expect(lineTotal(body, '999')).toBe(0)
    expect(lineTotal(body, '2')).toBeGreaterThan(0)
    const pages = await series({ split_by: ['page_url'], chart_lines: ['https://nowhere.example/'] })
    expect(pages.mappings['page_url']).toEqual({ 'https://nowhere.example/': null })
  })

  it('marks rows that have chart markers', async () => {
    const body = await series({ start_date: '2023-05-12', end_date: '2024-06-14' })
    const marked = body.rows.filter((row) => row.__markers__)
    expect(marked.length).toBeGreaterThanOrEqual(3)
    const marker = marked[0]?.__markers__?.[0] ?? {}
    expect(Object.keys(marker).sort()).toEqual([
      'author',
      'created',
      'date',
      'date_ts',
      'edited',
      'first_name',
      'granularity',
      'last_name',
      'marker_id',
      'message',
      'referer',
    ])
    expect(marker['date']).toBe(marked[0]?.__time__)
    expect(marker['granularity']).toBe('granularity_day')
    const weekly = await series({ granularity: 'week', start_date: '2023-05-12', end_date: '2024-06-14' })
    expect(weekly.rows.filter((row) => row.__markers__).length).toBe(marked.length)
  })
})

describe('filters', () => {
  async function countryTotal(filter: Record<string, unknown>): Promise<number> {
    return lineTotal(await series({ filters: [{ name: 'country', ...filter }] }), '__total__')
  }
  let byCountry: Record<string, number> = {}
  beforeAll(async () => {
    const body = await series({ split_by: ['country'], chart_lines: COUNTRIES })
    byCountry = Object.fromEntries(COUNTRIES.map((country) => [country, lineTotal(body, country)]))
  })
  const total = (countries: string[]): number => sum(countries.map((country) => byCountry[country]))

  it('supports all six match modes', async () => {
    expect(await countryTotal({ value: ['US'], match: 'equals' })).toBe(total(['US']))
    expect(await countryTotal({ value: ['US', 'GB'], match: 'equals' })).toBe(total(['US', 'GB']))
    expect(await countryTotal({ value: ['US'], match: 'not equals' })).toBe(total(COUNTRIES.filter((country) => country !== 'US')))
    expect(await countryTotal({ value: ['S'], match: 'contains' })).toBe(total(['ES', 'SE', 'US']))
    expect(await countryTotal({ value: ['S'], match: 'not contains' })).toBe(total(COUNTRIES.filter((country) => !country.includes('S'))))
    expect(await countryTotal({ value: ['C'], match: 'begins with' })).toBe(total(['CA', 'CH']))
    expect(await countryTotal({ value: ['E'], match: 'ends with' })).toBe(total(['DE', 'SE']))
  })

  it('is case-sensitive unless case_insensitive is 1', async () => {
    expect(await countryTotal({ value: ['us'], match: 'equals' })).toBe(0)
    expect(await countryTotal({ value: ['us'], match: 'equals', case_insensitive: 0 })).toBe(0)
    expect(await countryTotal({ value: ['us'], match: 'equals', case_insensitive: 1 })).toBe(total(['US']))
    expect(await countryTotal({ value: ['c'], match: 'begins with', case_insensitive: 1 })).toBe(total(['CA', 'CH']))
  })

  it('searches mappings with search_mappings 1, including contains on the mapping text', async () => {
    expect(await countryTotal({ value: ['Kingdom'], match: 'contains' })).toBe(0)
    expect(await countryTotal({ value: ['Kingdom'], match: 'contains', search_mappings: 1 })).toBe(total(['GB']))
    expect(await countryTotal({ value: ['United Kingdom'], match: 'equals', search_mappings: 1 })).toBe(total(['GB']))
    expect(await countryTotal({ value: ['GB'], match: 'equals', search_mappings: 1 })).toBe(total(['GB']))
    expect(await countryTotal({ value: ['kingdom'], match: 'not contains', search_mappings: 1, case_insensitive: 1 })).toBe(
      total(COUNTRIES.filter((country) => country !== 'GB')),
    )
    const token = await tokenFor(sandbox)
    const name = ((await workflow(sandbox, 'GET', '/publishers/4/', { token })).json as { name: string }).name
    const byId = lineTotal(await series({ filters: [{ name: 'publisher', value: ['4'], match: 'equals' }] }), '__total__')
    const byName = lineTotal(await series({ filters: [{ name: 'publisher', value: [name.slice(2, -2)], match: 'contains', search_mappings: 1 }] }), '__total__')
    expect(byName).toBeGreaterThanOrEqual(byId)
    expect(lineTotal(await series({ filters: [{ name: 'publisher', value: [name], match: 'equals', search_mappings: 1 }] }), '__total__')).toBe(byId)
  })

  it('ANDs filters without a template and follows filter_template when given', async () => {
    const filters = [
      { name: 'country', value: ['US'], match: 'equals' },
      { name: 'device_type', value: ['mobile'], match: 'equals' },
      { name: 'device_type', value: ['desktop'], match: 'equals' },
    ]
    expect(lineTotal(await series({ filters }), '__total__')).toBe(0)
    const both = lineTotal(await series({ filters, filter_template: '1 and (2 or 3)' }), '__total__')
    const mobile = lineTotal(await series({ filters: [filters[0], filters[1]] }), '__total__')
    const desktop = lineTotal(await series({ filters: [filters[0], filters[2]] }), '__total__')
    expect(both).toBe(mobile + desktop)
    const notUs = lineTotal(await series({ filters, filter_template: 'not 1 AND (2 OR 3)' }), '__total__')
    const anyMobileOrDesktop = lineTotal(await series({ filters, filter_template: '(2 or 3) and (1 or not 1)' }), '__total__')
    expect(notUs + both).toBe(anyMobileOrDesktop)
    for (const template of ['1 and (2 or 3', '1 and 4 and 2 and 3', '1 and 2', '1 xor 2 and 3']) {
      expect(
        await failure(sandbox, 'time_series', {
          granularity: 'day',
          split_by: [],
          chart_lines: ['__total__'],
          data_field: 'impressions',
          ...RANGE,
          filters,
          filter_template: template,
        }),
        template,
      ).toContain('filter_template')
    }
  })

  it('filters on time fields too', async () => {
    const body = await series({ filters: [{ name: 'granularity_day', value: ['2024-06-03'], match: 'equals' }] })
    expect(body.rows.filter((row) => Number(row['__total__']) > 0).map((row) => row.__time__)).toEqual(['2024-06-03'])
  })

  it('rejects malformed filters, naming them', async () => {
    const base = { granularity: 'day', split_by: [], chart_lines: ['__total__'], data_field: 'impressions', ...RANGE }
    expect(await failure(sandbox, 'time_series', { ...base, filters: [{ name: 'country', value: ['US'], match: 'like' }] })).toContain('filters[0].match')
    expect(await failure(sandbox, 'time_series', { ...base, filters: [{ name: 'planet', value: ['US'], match: 'equals' }] })).toContain('filters[0].name')
    expect(await failure(sandbox, 'time_series', { ...base, filters: [{ name: 'country', value: 'US', match: 'equals' }] })).toContain('filters[0].value')
    expect(await failure(sandbox, 'time_series', { ...base, filters: [{ name: 'country', value: ['US'], match: 'equals', case_insensitive: 2 }] })).toContain(
      'filters[0].case_insensitive',
    )
  })
})

describe('data filters, order_by, options and custom fields', () => {
  it('applies data_filters to aggregated rows, with data_filter_template', async () => {
    const all = await series({ granularity: 'publisher', limit: 10000 })
    const values = all.rows.map((row) => Number(row['__total__']))
    const threshold = values[10] ?? 0
    const kept = await series({ granularity: 'publisher', limit: 10000, data_filters: [{ name: 'impressions', match: '>=', value: String(threshold) }] })
    expect(kept.rows.map((row) => row.__time__)).toEqual(all.rows.slice(0, 11).map((row) => row.__time__))
    const low = values[values.length - 1] ?? 0
    const either = await series({
      granularity: 'publisher',
      limit: 10000,
      data_filters: [
        { name: 'impressions', match: '>=', value: String(threshold) },
        { name: 'impressions', match: '=', value: low },
      ],
      data_filter_template: '1 or 2',
    })
    expect(either.rows).toHaveLength(12)
    const none = await series({ granularity: 'publisher', data_filters: [{ name: 'impressions', match: '>', value: '1e12' }] })
    expect(none.rows).toHaveLength(0)
    for (const match of ['<', '<=', '!=']) {
      const body = await series({ granularity: 'publisher', limit: 10000, data_filters: [{ name: 'impressions', match, value: String(threshold) }] })
      const expected = values.filter((value) => (match === '<' ? value < threshold : match === '<=' ? value <= threshold : value !== threshold)).length
      expect(body.rows, match).toHaveLength(expected)
    }
    expect(
      await failure(sandbox, 'time_series', {
        granularity: 'publisher',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        ...RANGE,
        data_filters: [{ name: 'impressions', match: '~', value: '1' }],
      }),
    ).toContain('data_filters[0].match')
    expect(
      await failure(sandbox, 'time_series', {
        granularity: 'publisher',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        ...RANGE,
        data_filters: [{ name: 'impressions', match: '>', value: '1' }],
        data_filter_template: '1 and 2',
      }),
    ).toContain('data_filter_template')
  })

  it('orders rows by order_by: a data field, the key, or its mapping', async () => {
    const ascending = await series({ granularity: 'publisher', limit: 10000, order_by: { name: 'publisher', direction: 'ASC' } })
    expect(ascending.rows.map((row) => Number(row.__time__))).toEqual(Array.from({ length: 40 }, (_, index) => index + 1))
    const byName = await series({ granularity: 'publisher', limit: 10000, order_by: [{ name: 'publisher', direction: 'DESC', mapping: 1 }] })
    const names = byName.rows.map((row) => String(row.__mapping__))
    expect(names).toEqual([...names].sort().reverse())
    const byClicks = await series({ granularity: 'publisher', limit: 10000, order_by: { name: 'clicks', direction: 'ASC' } })
    const clicks = await series({ granularity: 'publisher', limit: 10000, data_field: 'clicks', order_by: { name: 'publisher' } })
    const clicksOf = new Map(clicks.rows.map((row) => [row.__time__, Number(row['__total__'])]))
    const ordered = byClicks.rows.map((row) => clicksOf.get(row.__time__) ?? -1)
    expect(ordered).toEqual([...ordered].sort((a, b) => a - b))
    expect(
      await failure(sandbox, 'time_series', {
        granularity: 'publisher',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        ...RANGE,
        order_by: { name: 'colour' },
      }),
    ).toContain('order_by')
  })

  it('accepts data_field_options as an array of objects only', async () => {
    await series({ data_field_options: [{ name: 'revenue', currency: 'USD' }] })
    expect(
      await failure(sandbox, 'time_series', {
        granularity: 'day',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        ...RANGE,
        data_field_options: 'fast',
      }),
    ).toContain('data_field_options')
    expect(
      await failure(sandbox, 'time_series', {
        granularity: 'day',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        ...RANGE,
        data_field_options: [1],
      }),
    ).toContain('data_field_options')
  })

  it('serves the shared custom field to all and the private one only to demo', async () => {
    const viewer = await tokenFor(sandbox, 'viewer')
    const margin = await totalSeries(sandbox, { ...RANGE, data_field: 'margin', token: viewer })
    expect(Number(margin.rows[0]?.['__total__'])).toBeGreaterThan(0)
    const mine = await series({ data_field: 'my_margin_estimate' })
    expect(Number(mine.rows[0]?.['__total__'])).toBeGreaterThan(0)
    const reason = await failure(sandbox, 'time_series', {
      granularity: 'day',
      split_by: [],
      chart_lines: ['__total__'],
      data_field: 'my_margin_estimate',
      ...RANGE,
      token: viewer,
    })
    expect(reason).toContain('my_margin_estimate')
  })
})
