import { describe, expect, it } from 'vitest'
import { adaptDefinition, audienceBlocker, chartBlocker, defaultDefinition, valuesScope } from '../../../../renderer/src/domain/reports/definition'
import { info } from './fixtures'

describe('report definition', () => {
  it('starts from info: the first everyday metric, auto granularity, last 7 days, report timezone, top 10 + Total, line chart', () => {
    const definition = defaultDefinition(info)
    expect(definition).toMatchObject({
      project: 'demo',
      report: 'supply',
      metrics: ['impressions'],
      granularity: 'auto',
      dates: { start: '-7d', end: '-1d' },
      timezone: { mode: 'report' },
      lines: { mode: 'top', count: 10, by: null, includeTotal: true },
      chart: { type: 'line', hidden: [], showMarkers: true },
      comparison: 'none',
    })
  })

  it('keeps dates and chart type for another report but drops fields it lacks', () => {
    const before = { ...defaultDefinition(info), dates: { start: '-30d', end: '-1d' }, metrics: ['revenue', 'bids'], breakdown: ['country', 'gone'] }
    before.chart.type = 'bar'
    const other = { ...info, report: 'other', dataFields: info.dataFields.filter((field) => field.name !== 'bids') }
    const adapted = adaptDefinition(before, other)
    expect(adapted).toMatchObject({
      report: 'other',
      dates: { start: '-30d', end: '-1d' },
      metrics: ['revenue'],
      breakdown: ['country'],
      chart: { type: 'bar' },
    })
    expect(adaptDefinition(before, info)).toBe(before)
  })

  it('says why the chart cannot run yet', () => {
    const definition = defaultDefinition(info)
    expect(chartBlocker(definition, null)).toBeNull()
    expect(chartBlocker({ ...definition, metrics: [] }, null)).toBe('Pick a metric to chart.')
    expect(chartBlocker(definition, 'Unknown date “-7x”.')).toBe('The dates need fixing: Unknown date “-7x”.')
    expect(chartBlocker({ ...definition, breakdown: ['country'], lines: { mode: 'top', count: 50, by: null, includeTotal: true } }, null)).toMatch(/51 lines/)
    const filter = { key: 'country', match: 'equals' as const, values: [] as string[], caseInsensitive: false, searchNames: false }
    expect(chartBlocker({ ...definition, filters: [filter] }, null)).toBe('Filter 1 has no values: add at least one, or remove the filter.')
    expect(chartBlocker({ ...definition, filters: [{ ...filter, values: ['FR'] }], filterLogic: '1 or 2' }, null)).toMatch(
      /^The filter logic is not valid: Filter 2/,
    )
    expect(chartBlocker({ ...definition, metricConditions: [{ metric: 'impressions', match: '>', value: 'ten' }] }, null)).toBe(
      'Metric condition 1 needs a number.',
    )
    expect(audienceBlocker({ ...definition, metrics: [] }, null)).toBeNull()
  })

  it('asks for value suggestions without the filter being edited or half-made ones', () => {
    const filter = (key: string, values: string[]) => ({ key, match: 'equals' as const, values, caseInsensitive: false, searchNames: false })
    const definition = {
      ...defaultDefinition(info),
      metrics: [],
      filters: [filter('country', ['FR']), filter('page_url', []), filter('country', ['DE'])],
      filterLogic: '1 or 2 or 3',
      metricConditions: [{ metric: 'impressions', match: '>' as const, value: '' }],
      metricConditionLogic: '1',
    }
    const scope = valuesScope(definition, info, 0)
    expect(scope.filters).toEqual([filter('country', ['DE'])])
    expect(scope.filterLogic).toBe('')
    expect(scope.metricConditions).toEqual([])
    expect(scope.metricConditionLogic).toBe('')
    expect(scope.metrics).toEqual(['impressions'])
    const whole = { ...definition, filters: [filter('country', ['FR'])], filterLogic: '1', metricConditions: [] }
    expect(valuesScope(whole, info, null)).toMatchObject({ filters: whole.filters, filterLogic: '1' })
  })
})
