import type { ChartResult } from './chart-shapes'

/**
 * A tile's single number with its change: the first metric's total line (else its first line),
 * its total over the range (its last value when the metric does not add up), and the change
 * against the comparison period when the report has one, else the last bucket against the one before.
 */
export interface TileNumber {
  label: string
  /** The metric it counts: its values say whether it reads in whole numbers. */
  metric: string
  value: number | null
  /** Percent; null when there is nothing to compare with (or it was zero). */
  change: number | null
  /** What the change compares with, for the words beside it. */
  against: 'comparison' | 'previous bucket' | null
}

export function tileNumber(result: ChartResult): TileNumber | null {
  const lines = result.series.filter((series) => series.role !== 'comparison')
  const chosen = lines.find((series) => series.role === 'total') ?? lines[0]
  if (chosen === undefined) return null
  const values = chosen.values.filter((value): value is number => value !== null)
  const last = values.at(-1) ?? null
  const value = chosen.stats.total ?? last
  if (result.comparisonRange !== null)
    return { label: chosen.label, metric: chosen.metric, value, change: chosen.stats.change, against: chosen.stats.change === null ? null : 'comparison' }
  const before = values.at(-2) ?? null
  const change = last === null || before === null || before === 0 ? null : ((last - before) / Math.abs(before)) * 100
  return { label: chosen.label, metric: chosen.metric, value, change, against: change === null ? null : 'previous bucket' }
}
