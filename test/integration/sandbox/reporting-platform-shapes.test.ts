import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { exportText, failure, startAt, success, sum } from './helpers'
import type { TimeSeriesBody } from './helpers'

/**
 * The request shapes of the real platform (docs/architecture.md, "Filling the spec's gaps"): data_filters
 * with `match` and a text value, order_by with ASC/DESC, the vendor's match spellings. The
 * older shapes stay accepted, with the same results.
 */
let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startAt()
})
afterAll(() => sandbox.close())

const RANGE = { start_date: '2024-06-01', end_date: '2024-06-07' }
const COUNTRIES = ['AU', 'BR', 'CA', 'CH', 'DE', 'ES', 'FR', 'GB', 'IN', 'IT', 'JP', 'MX', 'NL', 'PL', 'SE', 'US']
const SERIES = { granularity: 'day', split_by: [], chart_lines: ['__total__'], data_field: 'impressions', ...RANGE }

function series(body: Record<string, unknown>): Promise<TimeSeriesBody> {
  return success<TimeSeriesBody>(sandbox, 'time_series', { ...SERIES, ...body })
}

/** Countries of a csv export by country (no mappings), in the file's order. */
async function exportedCountries(body: Record<string, unknown>): Promise<string[]> {
  const { lines } = await exportText(sandbox, { ...RANGE, split_by: ['country'], data_fields: ['impressions'], include_mappings: 0, ...body })
  return lines.slice(1).map((line) => line.split(',')[0] ?? '')
}

describe('data_filters as {name, match, value}', () => {
  let impressions = new Map<string, number>()
  let median = 0
  beforeAll(async () => {
    const { lines } = await exportText(sandbox, { ...RANGE, split_by: ['country'], data_fields: ['impressions'], include_mappings: 0 })
    impressions = new Map(lines.slice(1).map((line) => [line.split(',')[0] ?? '', Number(line.split(',')[1])]))
    median = [...impressions.values()].sort((a, b) => a - b)[8] ?? 0
  })
  const countriesWhere = (test: (value: number) => boolean): string[] =>
    [...impressions]
      .filter(([, value]) => test(value))
      .map(([country]) => country)
      .sort()

  it('filters export rows with each match and the value as text, as the platform sends it', async () => {
    const cases: Array<[string, (value: number) => boolean]> = [
      ['>', (value) => value > median],
      ['>=', (value) => value >= median],
      ['<', (value) => value < median],
      ['<=', (value) => value <= median],
      ['=', (value) => value === median],
      ['!=', (value) => value !== median],
    ]
    for (const [match, test] of cases) {
      const kept = await exportedCountries({ data_filters: [{ name: 'impressions', match, value: String(median) }] })
      expect(kept.sort(), match).toEqual(countriesWhere(test))
    }
  })

  it('takes the value as a number too, and the older operator key, with the same result', async () => {
    const asText = await exportedCountries({ data_filters: [{ name: 'impressions', match: '>', value: String(median) }] })
    expect(asText.length).toBeGreaterThan(0)
    expect(asText.length).toBeLessThan(COUNTRIES.length)
    expect(await exportedCountries({ data_filters: [{ name: 'impressions', match: '>', value: median }] })).toEqual(asText)
    expect(await exportedCountries({ data_filters: [{ name: 'impressions', operator: '>', value: median }] })).toEqual(asText)
    expect(await exportedCountries({ data_filters: [{ name: 'impressions', operator: '>', value: String(median) }] })).toEqual(asText)
    expect(await exportedCountries({ data_filters: [{ name: 'impressions', match: '>', operator: '>', value: median }] })).toEqual(asText)
    expect(await exportedCountries({ data_filters: [{ name: 'impressions', match: '>', value: ` ${median}.0 ` }] })).toEqual(asText)
  })

  it('applies to time series rows with data_filter_template', async () => {
    const all = await series({ granularity: 'country', limit: 10000 })
    const value = (row: Record<string, unknown>): number => Number(row['__total__'])
    const top = value(all.rows[2] ?? {})
    const bottom = value(all.rows[all.rows.length - 1] ?? {})
    const either = await series({
      granularity: 'country',
      limit: 10000,
      data_filters: [
        { name: 'impressions', match: '>=', value: String(top) },
        { name: 'impressions', match: '=', value: String(bottom) },
      ],
      data_filter_template: '1 or 2',
    })
    expect(either.rows.map((row) => row.__time__)).toEqual([...all.rows.slice(0, 3), all.rows[all.rows.length - 1]].map((row) => row?.__time__))
  })

  it('rejects a data filter without match, with a bad match or a value that is no number, naming the field', async () => {
    const reason = (filter: Record<string, unknown>): Promise<string> =>
      failure(sandbox, 'export', { ...RANGE, export_format: 'csv', split_by: ['country'], data_fields: ['impressions'], data_filters: [filter] })
    expect(await reason({ name: 'impressions', value: '1' })).toBe('Invalid parameter: data_filters[0].match is required (one of > >= < <= = !=)')
    expect(await reason({ name: 'impressions', match: '>>', value: '1' })).toContain('data_filters[0].match must be one of')
    expect(await reason({ name: 'impressions', operator: '~', value: '1' })).toContain('data_filters[0].operator must be one of')
    expect(await reason({ name: 'impressions', match: '>', operator: '<', value: '1' })).toContain("data_filters[0].match '>' contradicts operator '<'")
    for (const value of ['many', '', '1,000', true, null, ['1']]) {
      expect(await reason({ name: 'impressions', match: '>', value }), JSON.stringify(value)).toBe(
        'Invalid parameter: data_filters[0].value must be a number or a text holding one, such as "1"',
      )
    }
    expect(await reason({ name: 'colour', match: '>', value: '1' })).toContain('data_filters[0].name')
  })
})

describe('order_by as {name, direction: ASC|DESC, mapping}', () => {
  it('sorts export rows by key ASC and DESC; lower and mixed case read the same', async () => {
    const ascending = await exportedCountries({ order_by: { name: 'country', direction: 'ASC' } })
    expect(ascending).toEqual(COUNTRIES)
    const descending = await exportedCountries({ order_by: { name: 'country', direction: 'DESC' } })
    expect(descending).toEqual([...COUNTRIES].reverse())
    expect(await exportedCountries({ order_by: { name: 'country', direction: 'desc' } })).toEqual(descending)
    expect(await exportedCountries({ order_by: { name: 'country', direction: 'Desc' } })).toEqual(descending)
    expect(await exportedCountries({ order_by: { name: 'country', direction: 'asc' } })).toEqual(ascending)
  })

  it('sorts by the mapping text with mapping 1, by the value with mapping 0', async () => {
    const byName = await exportedCountries({ order_by: { name: 'country', direction: 'DESC', mapping: 1 } })
    // United States, United Kingdom, Switzerland, Sweden, Spain, Poland, …
    expect(byName.slice(0, 6)).toEqual(['US', 'GB', 'CH', 'SE', 'ES', 'PL'])
    expect(byName).toHaveLength(COUNTRIES.length)
    const byNameAscending = await exportedCountries({ order_by: [{ name: 'country', direction: 'ASC', mapping: 1 }] })
    expect(byNameAscending).toEqual([...byName].reverse())
    expect(await exportedCountries({ order_by: { name: 'country', direction: 'DESC', mapping: 0 } })).toEqual([...COUNTRIES].reverse())
  })

  it('sorts by a data field and by several terms in order', async () => {
    const { lines } = await exportText(sandbox, {
      ...RANGE,
      split_by: ['device_type', 'country'],
      data_fields: ['impressions'],
      order_by: [
        { name: 'device_type', direction: 'DESC' },
        { name: 'impressions', direction: 'ASC' },
      ],
    })
    const rows = lines.slice(1).map((line) => line.split(','))
    const devices = rows.map((row) => row[0] ?? '')
    expect([...new Set(devices)]).toEqual(['tablet', 'mobile', 'desktop', 'ctv'])
    for (const device of new Set(devices)) {
      const values = rows.filter((row) => row[0] === device).map((row) => Number(row[2]))
      expect(values, device).toEqual([...values].sort((a, b) => a - b))
    }
    const series = await success<TimeSeriesBody>(sandbox, 'time_series', {
      ...SERIES,
      granularity: 'country',
      limit: 10000,
      order_by: { name: 'impressions', direction: 'DESC' },
    })
    const values = series.rows.map((row) => Number(row['__total__']))
    expect(values).toEqual([...values].sort((a, b) => b - a))
  })

  it('rejects an unknown direction or mapping, naming the field', async () => {
    const reason = (orderBy: unknown): Promise<string> => failure(sandbox, 'time_series', { ...SERIES, granularity: 'country', order_by: orderBy })
    expect(await reason({ name: 'country', direction: 'UP' })).toBe('Invalid parameter: order_by.direction must be one of "ASC", "DESC"')
    expect(
      await reason([
        { name: 'country', direction: 'ASC' },
        { name: 'country', direction: 'sideways' },
      ]),
    ).toContain('order_by[1].direction')
    expect(await reason({ name: 'country', mapping: 2 })).toContain('order_by.mapping')
  })
})

describe("filter match: the vendor's spellings and the two negative modes", () => {
  let byCountry: Record<string, number> = {}
  beforeAll(async () => {
    const body = await series({ split_by: ['country'], chart_lines: COUNTRIES })
    byCountry = Object.fromEntries(COUNTRIES.map((country) => [country, sum(body.rows.map((row) => row[country]))]))
  })
  const total = (countries: readonly string[]): number => sum(countries.map((country) => byCountry[country]))
  const except = (...left: string[]): string[] => COUNTRIES.filter((country) => !left.includes(country))
  async function countryTotal(filter: Record<string, unknown>): Promise<number> {
    const body = await series({ filters: [{ name: 'country', ...filter }] })
    return sum(body.rows.map((row) => row['__total__']))
  }

  it('reads beginswith and endswith as begins with and ends with', async () => {
    expect(await countryTotal({ value: ['C'], match: 'beginswith' })).toBe(total(['CA', 'CH']))
    expect(await countryTotal({ value: ['C'], match: 'beginswith' })).toBe(await countryTotal({ value: ['C'], match: 'begins with' }))
    expect(await countryTotal({ value: ['E'], match: 'endswith' })).toBe(total(['DE', 'SE']))
    expect(await countryTotal({ value: ['E'], match: 'endswith' })).toBe(await countryTotal({ value: ['E'], match: 'ends with' }))
  })

  it('not beginswith and not endswith keep the values that match none of the filter values', async () => {
    expect(total(COUNTRIES)).toBeGreaterThan(0)
    expect(await countryTotal({ value: ['C'], match: 'not beginswith' })).toBe(total(except('CA', 'CH')))
    expect(await countryTotal({ value: ['C', 'U'], match: 'not beginswith' })).toBe(total(except('CA', 'CH', 'US')))
    expect(await countryTotal({ value: ['E'], match: 'not endswith' })).toBe(total(except('DE', 'SE')))
    expect(await countryTotal({ value: ['E', 'B'], match: 'not endswith' })).toBe(total(except('DE', 'SE', 'GB')))
    expect(await countryTotal({ value: ['Z'], match: 'not endswith' })).toBe(total(COUNTRIES))
  })

  it('honour case_insensitive like the other modes', async () => {
    expect(await countryTotal({ value: ['c'], match: 'not beginswith' })).toBe(total(COUNTRIES))
    expect(await countryTotal({ value: ['c'], match: 'not beginswith', case_insensitive: 1 })).toBe(total(except('CA', 'CH')))
    expect(await countryTotal({ value: ['e'], match: 'not endswith', case_insensitive: 0 })).toBe(total(COUNTRIES))
    expect(await countryTotal({ value: ['e'], match: 'not endswith', case_insensitive: 1 })).toBe(total(except('DE', 'SE')))
    expect(await countryTotal({ value: ['c'], match: 'beginswith', case_insensitive: 1 })).toBe(total(['CA', 'CH']))
  })

  it('honour search_mappings: a value or its mapping text that matches excludes the row', async () => {
    // Without search_mappings the names do not count: no code starts with "United".
    expect(await countryTotal({ value: ['United'], match: 'not beginswith' })).toBe(total(COUNTRIES))
    expect(await countryTotal({ value: ['United'], match: 'not beginswith', search_mappings: 1 })).toBe(total(except('GB', 'US')))
    // "U" hits US by its code and GB by its name.
    expect(await countryTotal({ value: ['U'], match: 'not beginswith', search_mappings: 1 })).toBe(total(except('GB', 'US')))
    expect(await countryTotal({ value: ['land'], match: 'not endswith', search_mappings: 1 })).toBe(total(except('CH', 'PL')))
    expect(await countryTotal({ value: ['LAND'], match: 'not endswith', search_mappings: 1 })).toBe(total(COUNTRIES))
    expect(await countryTotal({ value: ['LAND'], match: 'not endswith', search_mappings: 1, case_insensitive: 1 })).toBe(total(except('CH', 'PL')))
    expect(await countryTotal({ value: ['many'], match: 'endswith', search_mappings: 1 })).toBe(total(['DE']))
  })

  it('filter exports and audiences too', async () => {
    const endings = ['A', 'E', 'L', 'P', 'R', 'X']
    const exported = await exportedCountries({ filters: [{ name: 'country', value: endings, match: 'not endswith' }] })
    expect(exported.sort()).toEqual(['AU', 'CH', 'ES', 'GB', 'IN', 'IT', 'US'])
    const audience = await success<{ rows: Array<{ name: string[] }> }>(sandbox, 'audience', {
      ...RANGE,
      split_by: ['country'],
      filters: [{ name: 'country', value: ['united'], match: 'not beginswith', search_mappings: 1, case_insensitive: 1 }],
    })
    expect(audience.rows.map((row) => row.name[0]).sort()).toEqual(except('GB', 'US'))
  })

  it('rejects spellings outside the ten, naming the field', async () => {
    for (const match of ['begins_with', 'not begins with', 'notbeginswith', 'BEGINSWITH', 'not ends with']) {
      expect(await failure(sandbox, 'time_series', { ...SERIES, filters: [{ name: 'country', value: ['C'], match }] }), match).toContain('filters[0].match')
    }
  })
})
