import { describe, expect, it } from 'vitest'
import type { ReportDefinition } from '@contract'
import { AppError } from '../../../main/services/errors'
import { checkLogic } from '../../../main/services/reports/logic'
import { chartLines, exportRankingBody, LINE_SEPARATOR, planChart, rankingBody, timeSeriesBody } from '../../../main/services/reports/platform-body'
import { planScope } from '../../../main/services/reports/scope'
import { clock, definition, infoView } from './fixtures'

function bodyOf(overrides: Partial<ReportDefinition>, values: string[] = []) {
  const made = definition(overrides)
  const scope = planScope(made, infoView, clock)
  const chart = planChart(made, infoView, scope)
  return timeSeriesBody(scope, chart, made.metrics[0] ?? '', chartLines(made, values))
}

function refusal(work: () => unknown): AppError {
  try {
    work()
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('time series request', () => {
  it('sends absolute dates, the full granularity name and the timezone the report supports', () => {
    expect(bodyOf({})).toEqual({
      project_name: 'demo',
      slicer_name: 'supply',
      // Report timezone +2: at 12:30 local it is 2024-06-15.
      start_date: '2024-06-08',
      end_date: '2024-06-14',
      timezone: 2,
      granularity: 'granularity_day',
      split_by: [],
      chart_lines: ['__total__'],
      data_field: 'impressions',
    })
  })

  it('resolves auto from the range, and takes short and full names', () => {
    expect(bodyOf({ dates: { start: 'yesterday', end: 'today' } }).granularity).toBe('granularity_hour')
    expect(bodyOf({ dates: { start: '-180d', end: 'today' } }).granularity).toBe('granularity_week')
    expect(bodyOf({ dates: { start: '-500d', end: 'today' } }).granularity).toBe('granularity_month')
    expect(bodyOf({ granularity: 'quarter' }).granularity).toBe('granularity_quarter')
    expect(bodyOf({ granularity: 'granularity_year' }).granularity).toBe('granularity_year')
  })

  it('leaves the timezone out when the report does not support one', () => {
    const made = definition({ timezone: { mode: 'fixed', offset: -5 } })
    const info = { ...infoView, supportsTimezone: false }
    const scope = planScope(made, info, clock)
    const body = timeSeriesBody(scope, planChart(made, info, scope), 'impressions', ['__total__'])
    expect(body).not.toHaveProperty('timezone')
    expect(scope.offset).toBe(2)
    expect(scope.notes.join(' ')).toMatch(/does not let the timezone change/)
  })

  it('sends the breakdown as split_by and picked lines joined by U+0002, Total last', () => {
    const line = ['17', 'FR'].join(LINE_SEPARATOR)
    const body = bodyOf({ breakdown: ['publisher', 'country'], lines: { mode: 'pick', values: [line], includeTotal: true } }, [line])
    expect(body.split_by).toEqual(['publisher', 'country'])
    expect(body.chart_lines).toEqual(['17\u0002FR', '__total__'])
    expect(chartLines(definition({ breakdown: ['country'], lines: { mode: 'pick', values: ['FR'], includeTotal: false } }), ['FR'])).toEqual(['FR'])
  })

  it('refuses a picked line with the wrong number of values', () => {
    const error = refusal(() => bodyOf({ breakdown: ['publisher', 'country'], lines: { mode: 'pick', values: ['17'], includeTotal: false } }))
    expect(error.details).toMatchObject({ field: 'lines' })
  })

  it('refuses more than 50 lines, Total included, before anything is sent', () => {
    const fifty = Array.from({ length: 50 }, (_, index) => `v${index}`)
    expect(bodyOf({ breakdown: ['country'], lines: { mode: 'pick', values: fifty, includeTotal: false } }, fifty).chart_lines).toHaveLength(50)
    const picked = refusal(() => bodyOf({ breakdown: ['country'], lines: { mode: 'pick', values: fifty, includeTotal: true } }))
    expect(picked.details).toMatchObject({ field: 'lines' })
    expect(picked.message).toMatch(/51 lines .* at most 50/)
    const top = refusal(() =>
      planChart(
        definition({ breakdown: ['country'], lines: { mode: 'top', count: 50, by: null, includeTotal: true } }),
        infoView,
        planScope(definition(), infoView, clock),
      ),
    )
    expect(top.details).toMatchObject({ field: 'lines' })
  })

  it('sends filters in the spec spelling, the two negative edge modes in the vendor one', () => {
    const body = bodyOf({
      filters: [
        { key: 'country', match: 'begins with', values: ['F', 'D'], caseInsensitive: true, searchNames: true },
        { key: 'publisher', match: 'not begins with', values: ['1'], caseInsensitive: false, searchNames: false },
        { key: 'page_url', match: 'not ends with', values: ['.html'], caseInsensitive: false, searchNames: false },
        { key: 'country', match: 'not equals', values: ['US'], caseInsensitive: false, searchNames: false },
      ],
    })
    expect(body.filters).toEqual([
      { name: 'country', match: 'begins with', value: ['F', 'D'], case_insensitive: 1, search_mappings: 1 },
      { name: 'publisher', match: 'not beginswith', value: ['1'], case_insensitive: 0, search_mappings: 0 },
      { name: 'page_url', match: 'not endswith', value: ['.html'], case_insensitive: 0, search_mappings: 0 },
      { name: 'country', match: 'not equals', value: ['US'], case_insensitive: 0, search_mappings: 0 },
    ])
    expect(body).not.toHaveProperty('filter_template')
  })

  it('sends filter logic as filter_template after checking it', () => {
    const filters: ReportDefinition['filters'] = [
      { key: 'country', match: 'equals', values: ['FR'], caseInsensitive: false, searchNames: false },
      { key: 'country', match: 'equals', values: ['DE'], caseInsensitive: false, searchNames: false },
      { key: 'publisher', match: 'equals', values: ['7'], caseInsensitive: false, searchNames: false },
    ]
    expect(bodyOf({ filters, filterLogic: ' (1 OR 2) and 3 ' }).filter_template).toBe('(1 OR 2) and 3')
    const error = refusal(() => bodyOf({ filters, filterLogic: '1 and (2 or 4)' }))
    expect(error.details).toMatchObject({ field: 'filterLogic' })
    expect(error.message).toBe('4 does not name a filter: there are 3 filters.')
    expect(refusal(() => bodyOf({ filters, filterLogic: 'x' })).details).toMatchObject({ field: 'filterLogic' })
  })

  it('sends metric conditions as data_filters with the number as a string, and their logic', () => {
    const body = bodyOf({
      metricConditions: [
        { metric: 'impressions', match: '>=', value: ' 1 ' },
        { metric: 'revenue', match: '<', value: '2.50' },
      ],
      metricConditionLogic: '1 or 2',
    })
    expect(body.data_filters).toEqual([
      { name: 'impressions', match: '>=', value: '1' },
      { name: 'revenue', match: '<', value: '2.5' },
    ])
    expect(body.data_filter_template).toBe('1 or 2')
    expect(refusal(() => bodyOf({ metricConditions: [{ metric: 'impressions', match: '>', value: 'ten' }] })).details).toMatchObject({
      field: 'metricConditions',
    })
    expect(refusal(() => bodyOf({ metricConditions: [{ metric: 'nope', match: '>', value: '1' }] })).details).toMatchObject({ field: 'metricConditions' })
    expect(
      refusal(() => bodyOf({ metricConditions: [{ metric: 'impressions', match: '>', value: '1' }], metricConditionLogic: '1 and 2' })).details,
    ).toMatchObject({ field: 'metricConditionLogic' })
  })

  it('sorts and limits a category chart, and ranks its categories by the first metric when unsorted', () => {
    const sorted = bodyOf({
      granularity: 'publisher',
      categoryLimit: 25,
      sort: [
        { field: 'publisher', direction: 'ASC', byName: true },
        { field: 'revenue', direction: 'DESC', byName: false },
      ],
    })
    expect(sorted.order_by).toEqual([
      { name: 'publisher', direction: 'ASC', mapping: 1 },
      { name: 'revenue', direction: 'DESC', mapping: 0 },
    ])
    expect(sorted.limit).toBe(25)
    expect(bodyOf({ granularity: 'publisher', metrics: ['revenue', 'impressions'] }).order_by).toEqual([{ name: 'revenue', direction: 'DESC', mapping: 0 }])
    expect(refusal(() => bodyOf({ granularity: 'publisher', sort: [{ field: 'country', direction: 'ASC', byName: false }] })).details).toMatchObject({
      field: 'sort',
    })
  })

  it('neither sorts nor limits a time axis', () => {
    const body = bodyOf({ categoryLimit: 25, sort: [{ field: 'impressions', direction: 'DESC', byName: false }] })
    expect(body).not.toHaveProperty('order_by')
    expect(body).not.toHaveProperty('limit')
  })

  it('refuses names the report does not have, at their field', () => {
    expect(refusal(() => bodyOf({ metrics: ['nope'] })).details).toMatchObject({ field: 'metrics' })
    expect(refusal(() => bodyOf({ granularity: 'nope' })).details).toMatchObject({ field: 'granularity' })
    expect(refusal(() => bodyOf({ breakdown: ['nope'] })).details).toMatchObject({ field: 'breakdown' })
    expect(refusal(() => bodyOf({ breakdown: ['country', 'country'] })).details).toMatchObject({ field: 'breakdown' })
    expect(
      refusal(() => bodyOf({ filters: [{ key: 'nope', match: 'equals', values: ['1'], caseInsensitive: false, searchNames: false }] })).details,
    ).toMatchObject({ field: 'filters' })
    expect(refusal(() => bodyOf({ dates: { start: 'soon', end: 'today' } })).details).toMatchObject({ field: 'dates', part: 'start' })
  })
})

describe('ranking requests', () => {
  const made = definition({
    breakdown: ['country'],
    filters: [{ key: 'publisher', match: 'equals', values: ['7'], caseInsensitive: false, searchNames: false }],
    metricConditions: [{ metric: 'impressions', match: '>', value: '0' }],
  })
  const scope = planScope(made, infoView, clock)

  it('one key: a time series over the key, Total only, biggest first, cut at N', () => {
    expect(rankingBody(scope, 'country', 'revenue', 10)).toMatchObject({
      granularity: 'country',
      split_by: [],
      chart_lines: ['__total__'],
      data_field: 'revenue',
      order_by: [{ name: 'revenue', direction: 'DESC', mapping: 0 }],
      limit: 10,
      filters: [{ name: 'publisher', match: 'equals', value: ['7'], case_insensitive: 0, search_mappings: 0 }],
      data_filters: [{ name: 'impressions', match: '>', value: '0' }],
      start_date: '2024-06-08',
      end_date: '2024-06-14',
    })
  })

  it('several keys: a csv export split by the keys with the one metric, biggest first', () => {
    expect(exportRankingBody(scope, ['publisher', 'country'], 'impressions')).toMatchObject({
      split_by: ['publisher', 'country'],
      data_fields: ['impressions'],
      order_by: [{ name: 'impressions', direction: 'DESC', mapping: 0 }],
      export_format: 'csv',
      include_mappings: 0,
      include_total: 0,
    })
  })
})

describe('filter logic', () => {
  it('accepts and, or, not and parentheses over every position', () => {
    for (const text of ['1', '1 and 2', '1 or 2 and 3', '(1 or 2) and not 3', 'NOT (1 AND 2) OR 3', '((1)) and 2 and 3']) {
      const count = Math.max(...(text.match(/\d+/g) ?? ['0']).map(Number))
      expect(checkLogic(text, count, 'filter'), text).toBeNull()
    }
    expect(checkLogic('   ', 0, 'filter')).toBeNull()
  })

  it('says what is wrong in a sentence', () => {
    expect(checkLogic('1 and', 2, 'filter')).toMatch(/ends too early/)
    expect(checkLogic('(1 and 2', 2, 'filter')).toMatch(/not closed/)
    expect(checkLogic('1 2', 2, 'filter')).toMatch(/Unexpected "2"/)
    expect(checkLogic('1 & 2', 2, 'filter')).toMatch(/Unexpected character "&"/)
    expect(checkLogic('0 or 1', 1, 'filter')).toMatch(/0 does not name a filter: there is 1 filter/)
    expect(checkLogic('1 xor 2', 2, 'filter')).toMatch(/Unexpected "xor"/)
    expect(checkLogic('1', 2, 'filter')).toBe('Filter 2 is not used in the logic; add it or remove the filter.')
    expect(checkLogic('1', 0, 'condition')).toMatch(/no conditions/)
    expect(checkLogic(`${'('.repeat(40)}1${')'.repeat(40)}`, 1, 'filter')).toMatch(/nests deeper than 32/)
    expect(checkLogic(`${'not '.repeat(40)}1`, 1, 'filter')).toMatch(/nests deeper than 32/)
    expect(checkLogic(Array.from({ length: 101 }, () => '1').join(' or '), 1, 'filter')).toMatch(/more than 100 filters/)
  })
})
