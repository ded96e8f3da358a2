import { describe, expect, it } from 'vitest'
import type { Series, TimeSeriesView } from '@contract'
import { chartDescription } from '../../../../renderer/src/domain/reports/chartDescription'

const stats = { total: 1, average: 1, min: 1, max: 1, change: null, points: 2 }
const series = (key: string, label: string, metric = 'requests', role: Series['role'] = 'line'): Series => ({
  key,
  metric,
  line: key,
  label,
  role,
  values: [1, 2],
  stats,
})

function result(overrides: Partial<TimeSeriesView>): TimeSeriesView {
  return {
    ranAt: '2026-11-23T10:00:00.000Z',
    durationMs: 1,
    range: { start: '2026-11-01 00:00:00', end: '2026-11-02 00:00:00', timezone: 0, days: 2 },
    comparisonRange: null,
    granularity: 'granularity_day',
    categories: ['2026-11-01 00:00:00', '2026-11-02 00:00:00'],
    comparisonCategories: [],
    series: [series('requests|FR', 'France'), series('requests|DE', 'Germany'), series('requests|__total__', 'Total', 'requests', 'total')],
    markers: [],
    sourcePoints: 2,
    reduced: false,
    notes: [],
    ...overrides,
  } as TimeSeriesView
}

describe('the chart description read to a screen reader', () => {
  it('names the chart, its metric, its x-axis and every series drawn', () => {
    expect(chartDescription(result({}), new Set(), 'line')).toBe(
      'Line chart of requests, 2 points from 2026-11-01 00:00:00 to 2026-11-02 00:00:00; 3 of 3 series shown: France, Germany, Total.',
    )
  })

  it('leaves out the series switched off, and says when none is left', () => {
    expect(chartDescription(result({}), new Set(['requests|FR']), 'stacked')).toMatch(/^Stacked area chart .*; 2 of 3 series shown: Germany, Total\.$/)
    expect(chartDescription(result({}), new Set(['requests|FR', 'requests|DE', 'requests|__total__']), 'bar')).toMatch(/every series is switched off\.$/)
  })

  it('names each series with its metric when the chart has several', () => {
    const twoMetrics = result({ series: [series('requests|FR', 'France'), series('revenue|FR', 'France', 'revenue')] })
    expect(chartDescription(twoMetrics, new Set(), 'area')).toBe(
      'Area chart of requests, revenue, 2 points from 2026-11-01 00:00:00 to 2026-11-02 00:00:00; 2 of 2 series shown: France · requests, France · revenue.',
    )
  })

  it('reads a category chart by the names of its first and last categories', () => {
    const publishers = result({ granularity: 'publisher', categories: ['p1', 'p2', 'p3'], categoryLabels: { p1: 'Le Monde', p3: 'Der Spiegel' } })
    expect(chartDescription(publishers, new Set(), 'bar')).toMatch(/^Bar chart of requests, 3 categories, Le Monde to Der Spiegel;/)
  })

  it('says when there is no data', () => {
    expect(chartDescription(result({ categories: [], series: [] }), new Set(), 'line')).toBe('Line chart of no metric, no data; no series.')
  })
})
