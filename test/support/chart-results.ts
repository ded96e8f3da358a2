import type { TimeSeriesView } from '@contract'

/** A chart result with one Total series of the given values: what cache and settings tests store. */
export function singleSeriesChart(options: { values: number[]; ranAt: string; timezone: number; durationMs: number }): TimeSeriesView {
  const { values, ranAt } = options
  const points = values.length
  return {
    ranAt,
    durationMs: options.durationMs,
    range: { start: '2026-01-01', end: '2026-01-04', timezone: options.timezone, days: 4 },
    comparisonRange: null,
    granularity: 'granularity_hour',
    categories: values.map((_, index) => `c${index}`),
    comparisonCategories: [],
    series: [
      {
        key: 'impressions|__total__',
        metric: 'impressions',
        line: '__total__',
        label: 'Total',
        role: 'total',
        values,
        stats: { total: 1, average: 1, min: 0, max: 1, change: null, points },
      },
    ],
    markers: [],
    sourcePoints: points,
    reduced: false,
    notes: [],
  }
}
