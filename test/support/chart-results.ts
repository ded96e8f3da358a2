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

/**
 * A chart result broken down by publisher and country, two days, impressions, with the previous
 * period: what the pivot's tests pivot. Lines are `<publisher>\u0002<country>`, labelled by name.
 */
export function breakdownChart(): TimeSeriesView {
  const stats = { total: null, average: null, min: null, max: null, change: null, points: 2 }
  const line = (publisher: string, country: string, values: (number | null)[], before: (number | null)[]) => {
    const key = `impressions|${publisher}\u0002${country}`
    const base = { metric: 'impressions', line: `${publisher}\u0002${country}`, label: `${publisher} / ${country}`, stats }
    return [
      { ...base, key, role: 'line' as const, values },
      { ...base, key: `${key}|compare`, role: 'comparison' as const, values: before },
    ]
  }
  return {
    ...singleSeriesChart({ values: [], ranAt: '2026-11-26T05:00:00.000Z', timezone: 0, durationMs: 10 }),
    granularity: 'granularity_day',
    categories: ['2026-11-24 00:00:00', '2026-11-25 00:00:00'],
    comparisonCategories: ['2026-11-22 00:00:00', '2026-11-23 00:00:00'],
    comparisonRange: { start: '2026-11-22', end: '2026-11-23', timezone: 0, days: 2 },
    series: [
      ...line('Alpha', 'US', [10, 20], [5, 5]),
      ...line('Alpha', 'FR', [1, null], [1, null]),
      ...line('Beta', 'US', [100, 0], [200, 0]),
      {
        key: 'impressions|__total__',
        metric: 'impressions',
        line: '__total__',
        label: 'Total',
        role: 'total',
        values: [999, 999],
        stats,
      },
    ],
  }
}
