import type { Series } from '@contract'

export type SeriesStats = Series['stats']

/**
 * Statistics of one series over all its points (before any reduction for drawing). A total
 * exists only for additive metrics: a ratio, a percent or a derived metric summed over days
 * means nothing. `points` counts the values present (gaps excluded). A sum past a double's
 * range (a platform answering 1e308 twice) is no total: null, which `totalOverflowed` tells
 * apart from a metric that has none; the average is then taken as a sum of shares, which stays
 * within the largest value.
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
  const finite = Number.isFinite(sum)
  return {
    total: additive && count > 0 && finite ? round(sum) : null,
    average: count > 0 ? round(finite ? sum / count : averageOfShares(values, count)) : null,
    min,
    max,
    change: null,
    points: count,
  }
}

/** The mean as the sum of each value's share (value / count): no partial sum exceeds the largest value. */
function averageOfShares(values: ReadonlyArray<number | null>, count: number): number {
  let average = 0
  for (const value of values) if (value !== null) average += value / count
  return average
}

/** True when an additive series has values but no total: their sum is past a double's range. */
export function totalOverflowed(stats: SeriesStats, additive: boolean): boolean {
  return additive && stats.points > 0 && stats.total === null
}

/**
 * Change against the comparison series in percent: of the totals for additive metrics, of
 * the averages otherwise. Null without a base, or from zero.
 */
export function changeAgainst(current: SeriesStats, previous: SeriesStats, additive: boolean): number | null {
  const now = additive ? current.total : current.average
  const before = additive ? previous.total : previous.average
  if (now === null || before === null || before === 0) return null
  const change = ((now - before) / Math.abs(before)) * 100
  return Number.isFinite(change) ? round(change) : null
}

/** Keeps float noise (0.1 + 0.2) out of what the table shows; a number too large to scale has no decimals to round. */
function round(value: number): number {
  const scaled = value * 1e9
  return Number.isFinite(scaled) ? Math.round(scaled) / 1e9 : value
}
