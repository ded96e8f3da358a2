import type { ChartField, ChartLine, ChartResult, ChartStyle } from './chart-shapes'
import { TOTAL_LINE } from '../lines'

/** Which y-axis each line goes on: percent metrics beside counts, and a Total that dwarfs the lines. */

/** Metrics in percent go on their own axis when the chart mixes them with counts or money. */
export function axisIndexes(metrics: readonly string[], fields: readonly ChartField[]): Map<string, number> {
  const isPercent = (name: string): boolean => fields.find((field) => field.name === name)?.displayType === 'percent'
  const firstPercent = metrics.length > 0 && isPercent(metrics[0] as string)
  return new Map(metrics.map((name) => [name, isPercent(name) === firstPercent ? 0 : 1]))
}

/**
 * Total gets its own axis once its peak is over this many times the highest other line's (their
 * comparisons included): at 3 the demo's top 10 countries, whose Total is 2.9 times Sweden, still
 * had nine of their lines pressed into the bottom fifth of the plot.
 */
export const TOTAL_DWARFS_RATIO = 2

export const isTotal = (series: ChartLine): boolean => series.line === TOTAL_LINE

/**
 * Whether Total (and its comparison) goes on an axis of its own on the right: when it dwarfs
 * the lines, on one shared axis it flattens them into the bottom of the plot. Not when the lines
 * stack (their stack reaches Total anyway), nor when the right axis already holds percent metrics.
 */
export function totalOnOwnAxis(result: ChartResult, type: ChartStyle, rightAxisTaken: boolean): boolean {
  if (type === 'stacked' || rightAxisTaken) return false
  const peak = (list: readonly ChartLine[]): number => {
    let highest = 0
    for (const series of list) for (const value of series.values) if (value !== null && value > highest) highest = value
    return highest
  }
  const totals = result.series.filter(isTotal)
  const lines = result.series.filter((series) => !isTotal(series))
  if (totals.length === 0 || lines.length === 0) return false
  return peak(totals) > TOTAL_DWARFS_RATIO * peak(lines)
}
