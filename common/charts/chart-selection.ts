import type { ChartLine, ChartResult } from './chart-shapes'

/** Which series the chart shows: ECharts' (hidden) legend selection, by series name. */

/**
 * The name ECharts knows a series by. The (hidden) ECharts legend selects series by name, so
 * names must be unique: with several metrics the same line appears once per metric.
 */
export function chartSeriesName(series: ChartLine, multiMetric: boolean): string {
  return multiMetric ? `${series.label} · ${series.metric}` : series.label
}

const isMultiMetric = (result: ChartResult): boolean => new Set(result.series.map((series) => series.metric)).size > 1

/** The legend selection for the hidden keys, by series name, as the option starts with it. */
export function legendSelection(result: ChartResult, hidden: ReadonlySet<string>): Record<string, boolean> {
  const multiMetric = isMultiMetric(result)
  return Object.fromEntries(result.series.map((series) => [chartSeriesName(series, multiMetric), !hidden.has(series.key)]))
}

/**
 * The series names to show and to hide when the hidden keys go from `before` to `after`: what a
 * toggle sends ECharts (legend select / unselect actions), instead of a new option with new
 * series arrays, so ECharts filters the series it already holds.
 */
export function selectionChanges(result: ChartResult, before: ReadonlySet<string>, after: ReadonlySet<string>): { show: string[]; hide: string[] } {
  const multiMetric = isMultiMetric(result)
  const show: string[] = []
  const hide: string[] = []
  for (const series of result.series) {
    const wasHidden = before.has(series.key)
    const isHidden = after.has(series.key)
    if (wasHidden !== isHidden) (isHidden ? hide : show).push(chartSeriesName(series, multiMetric))
  }
  return { show, hide }
}
