import type { ChartLine, ChartResult } from './chart-shapes'
import { baseKey } from './series'
import { TOTAL_LINE } from '../lines'

/**
 * Which series a chart draws, from the definition's chart part: ten dashed comparison lines over
 * ten lines made spaghetti (issue 39), and so did a preset of 41 lines. By default the chart
 * draws the comparison of the Total alone, and of a chart with more than ten lines, the ten
 * largest; the legend lists the others switched off, and the table keeps every line's numbers.
 */

/** The chart part of a definition, as far as the drawn lines go. */
export interface LineChoice {
  /** Lines the user switched off, by series key (older presets also hold comparison keys). */
  hidden: readonly string[]
  /** "Compare every line": each line's comparison is drawn, not only the Total's. */
  compareEveryLine?: boolean | undefined
  /** The user asked for every line (Show all): no line is left out for being small. */
  allLines?: boolean | undefined
}

/** How many lines a chart draws before the user picks: the largest, by the first metric. */
export const DRAWN_LINES_BY_DEFAULT = 10

const isTotalLine = (series: ChartLine): boolean => series.line === TOTAL_LINE

/** A line's size for ranking: its total, or its average when the metric cannot be added up. */
function size(series: ChartLine): number {
  if (series.stats.total !== null) return series.stats.total
  const present = series.values.filter((value): value is number => value !== null)
  return present.length === 0 ? Number.NEGATIVE_INFINITY : present.reduce((sum, value) => sum + value, 0) / present.length
}

/** The lines past the largest `count`, ranked by the first metric; a line left out is left out on every metric. */
function linesPastTop(result: Pick<ChartResult, 'series'>, count: number): Set<string> {
  const lines = result.series.filter((series) => series.role === 'line')
  const firstMetric = lines[0]?.metric
  const ranked = lines.filter((series) => series.metric === firstMetric).sort((left, right) => size(right) - size(left))
  if (ranked.length <= count) return new Set()
  const kept = new Set(ranked.slice(0, count).map((series) => series.line))
  return new Set(lines.filter((series) => !kept.has(series.line)).map((series) => series.key))
}

/** Whether the user chose this result's lines: the choice names one of them, or asked for all. */
function linesChosen(result: Pick<ChartResult, 'series'>, choice: LineChoice): boolean {
  const own = new Set(choice.hidden)
  return choice.allLines === true || result.series.some((series) => series.role !== 'comparison' && own.has(series.key))
}

/** Whether the chart leaves lines out for being small (the user chose none): the legend then says so. */
export function smallLinesLeftOut(result: Pick<ChartResult, 'series'>, choice: LineChoice): boolean {
  return !linesChosen(result, choice) && linesPastTop(result, DRAWN_LINES_BY_DEFAULT).size > 0
}

/**
 * The lines (and totals) the chart leaves out, by key, as the legend shows them switched off: the
 * user's own choice when it names any of this result's lines or asked for all, else the lines
 * past the ten largest. Keys of another breakdown's lines say nothing about these lines.
 */
export function hiddenLines(result: Pick<ChartResult, 'series'>, choice: LineChoice): Set<string> {
  if (!linesChosen(result, choice)) return linesPastTop(result, DRAWN_LINES_BY_DEFAULT)
  const own = new Set(choice.hidden)
  return new Set(result.series.filter((series) => series.role !== 'comparison' && own.has(series.key)).map((series) => series.key))
}

/**
 * Every series the chart does not draw: the hidden lines with their comparisons, and, unless
 * "Compare every line" is on, the comparison of each line that is not a Total.
 */
export function hiddenSeries(result: Pick<ChartResult, 'series'>, choice: LineChoice): Set<string> {
  const lines = hiddenLines(result, choice)
  const own = new Set(choice.hidden)
  const comparisons = result.series.filter(
    (series) =>
      series.role === 'comparison' && (lines.has(baseKey(series)) || own.has(series.key) || (choice.compareEveryLine !== true && !isTotalLine(series))),
  )
  return new Set([...lines, ...comparisons.map((series) => series.key)])
}
