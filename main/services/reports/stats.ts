import type { Series } from '@contract'

export type SeriesStats = Series['stats']

/**
 * Statistics of one series over all its points (before any reduction for drawing). A total
 * exists only for additive metrics: a ratio, a percent or a derived metric summed over days
 * means nothing. `points` counts the values present (gaps excluded).
 */
export function seriesStats(values: ReadonlyArray<number | null>, additive: boolean): SeriesStats {
  let sum = 0
  let count = 0
  let min: number | null = null
  let max: number | null = null
  for (const value of values) {
    if (value === null) continue
    sum += value
    count++
    if (min === null || value < min) min = value
    if (max === null || value > max) max = value
  }
  return {
    total: additive && count > 0 ? round(sum) : null,
    average: count > 0 ? round(sum / count) : null,
    min,
    max,
    change: null,
    points: count,
  }
}

/**
 * Change against the comparison series in percent: of the totals for additive metrics, of
 * the averages otherwise. Null without a base, or from zero.
 */
export function changeAgainst(current: SeriesStats, previous: SeriesStats, additive: boolean): number | null {
  const now = additive ? current.total : current.average
  const before = additive ? previous.total : previous.average
  if (now === null || before === null || before === 0) return null
  return round(((now - before) / Math.abs(before)) * 100)
}

/** Keeps float noise (0.1 + 0.2) out of what the table shows. */
function round(value: number): number {
  return Math.round(value * 1e9) / 1e9
}
