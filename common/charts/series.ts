import type { ChartLine, ChartResult } from './chart-shapes'

/**
 * Series as the chart, legend and table share them: a stable color per line (the comparison
 * line wears its base line's color), and which series belong together.
 */

/** Distinct, readable on light and dark backgrounds; Total gets a neutral of its own. */
const PALETTE = [
  '#2f6fed',
  '#e8684a',
  '#33a46c',
  '#9b59d0',
  '#f2a93b',
  '#17a2b8',
  '#d6457c',
  '#7a8b2f',
  '#5470c6',
  '#c2582b',
  '#2a9d8f',
  '#b5468f',
  '#8a6d3b',
  '#4c9be8',
  '#e76f51',
  '#6a994e',
  '#7e57c2',
  '#d4a017',
  '#3d8fa3',
  '#c0392b',
]
export const TOTAL_COLOR = { light: '#3c4257', dark: '#d5d9e3' }

/** `<metric>|<line>` for a comparison series' base line. */
export function baseKey(series: Pick<ChartLine, 'key' | 'role'>): string {
  return series.role === 'comparison' && series.key.endsWith('|compare') ? series.key.slice(0, -'|compare'.length) : series.key
}

export function seriesColors(result: Pick<ChartResult, 'series'>, dark: boolean): Map<string, string> {
  const colors = new Map<string, string>()
  let next = 0
  let neutralTaken = false
  for (const series of result.series) {
    if (series.role === 'comparison') continue
    // One Total wears the neutral; with several metrics the other Totals need colors of their own.
    if (series.role === 'total' && !neutralTaken) {
      neutralTaken = true
      colors.set(series.key, dark ? TOTAL_COLOR.dark : TOTAL_COLOR.light)
    } else colors.set(series.key, PALETTE[next++ % PALETTE.length] as string)
  }
  for (const series of result.series) {
    if (series.role === 'comparison') colors.set(series.key, colors.get(baseKey(series)) ?? '#888888')
  }
  return colors
}

/** The series the legend lists: lines and totals (each comparison follows its line). */
export function legendSeries<Line extends ChartLine>(result: { series: readonly Line[] }): Line[] {
  return result.series.filter((series) => series.role !== 'comparison')
}

/** The comparison series of a line, by key. */
export function comparisonOf<Line extends ChartLine>(result: { series: readonly Line[] }, key: string): Line | undefined {
  return result.series.find((series) => series.role === 'comparison' && baseKey(series) === key)
}

/** Keys to hide or show together: a line and its comparison. */
export function withComparison(result: Pick<ChartResult, 'series'>, key: string): string[] {
  const comparison = comparisonOf(result, key)
  return comparison ? [key, comparison.key] : [key]
}

/** A category's text on the axis, in the tooltip and the table: its name when the platform gave one (a key's value on a category chart). */
export function categoryText(result: Pick<ChartResult, 'categoryLabels'>, category: string): string {
  return result.categoryLabels?.[category] ?? category
}

/** A chart whose x-axis is a key field's values (publishers…), not time buckets. */
export function isCategoryChart(result: Pick<ChartResult, 'granularity'>): boolean {
  return !result.granularity.startsWith('granularity_')
}

/**
 * Where a series is highest on a category chart, as the category's name: "which publisher is
 * biggest for this line". Null on a time axis, without values, or when the axis was reduced (a
 * reduced point stands for a bucket of categories, not one).
 */
export function peakCategory(
  result: Pick<ChartResult, 'granularity' | 'categories' | 'categoryLabels' | 'reduced'>,
  series: Pick<ChartLine, 'values'>,
): string | null {
  if (!isCategoryChart(result) || result.reduced) return null
  let best = -1
  series.values.forEach((value, index) => {
    if (value !== null && (best < 0 || value > (series.values[best] as number))) best = index
  })
  const category = result.categories[best]
  return category === undefined ? null : categoryText(result, category)
}
