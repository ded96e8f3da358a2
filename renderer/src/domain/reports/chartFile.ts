import type { ChartTable, TimeSeriesView } from '@contract'
import { MARKERS_SERIES } from '../../../../common/charts/chart-option'
import { chartSeriesName } from '../../../../common/charts/chart-selection'

/**
 * What "Save chart" writes: the chart's numbers as a table (csv) and the option an off-screen
 * ECharts instance draws the PNG/SVG from. Pure: the composable (useChartFiles) reads the live
 * instance and hands its option here.
 */

/** An ECharts option as `getOption()` gives it: every component a list. */
export type LiveOption = Record<string, unknown>

/**
 * The series the user switched off, by key, as the live chart holds them: its (hidden) legend's
 * selection by series name, kept current by the legend select / unselect actions ReportChart
 * dispatches. Reading it from the instance keeps the file equal to what is on screen.
 */
export function hiddenSeriesKeys(result: TimeSeriesView, live: LiveOption | undefined): Set<string> {
  const selected = liveSelection(live)
  const multiMetric = new Set(result.series.map((series) => series.metric)).size > 1
  return new Set(result.series.filter((series) => selected[chartSeriesName(series, multiMetric)] === false).map((series) => series.key))
}

function liveSelection(live: LiveOption | undefined): Record<string, boolean> {
  const legends = live?.legend
  const legend = Array.isArray(legends) ? (legends[0] as { selected?: Record<string, boolean> } | undefined) : undefined
  return legend?.selected ?? {}
}

/**
 * The chart's numbers as the table behind it: one row per category (the comparison's own
 * category beside it), one column per series shown, in the result's order, and a Total row of
 * the totals the series table shows (empty where the metric cannot be added up). Series switched
 * off are left out, as they are from the image's legend.
 */
export function chartTable(result: TimeSeriesView, hidden: ReadonlySet<string> = new Set()): ChartTable {
  const shown = result.series.filter((series) => !hidden.has(series.key))
  const comparison = result.comparisonCategories.length > 0
  const metrics = new Set(result.series.map((series) => series.metric))
  const title = (label: string, metric: string) => (metrics.size > 1 ? `${label} · ${metric}` : label)
  const columns = [
    result.granularity.startsWith('granularity_') ? 'Time' : result.granularity,
    ...(comparison ? ['Compared with'] : []),
    ...shown.map((series) => title(series.label, series.metric)),
  ]
  const rows = result.categories.map((category, index) => [
    category,
    ...(comparison ? [result.comparisonCategories[index] ?? ''] : []),
    ...shown.map((series) => series.values[index] ?? null),
  ])
  const total = ['Total', ...(comparison ? [''] : []), ...shown.map((series) => series.stats.total)]
  return { columns, rows: [...rows, total] }
}

/** How many rows ECharts' plain legend takes for these names at this width (its items wrap). */
export function legendRows(names: readonly string[], width: number): number {
  const available = Math.max(200, width - 40)
  let rows = 1
  let used = 0
  for (const name of names) {
    // Icon, gap and about 7 px per character at the legend's 12 px.
    const item = 25 + 10 + Math.min(name.length, 60) * 7
    if (used > 0 && used + item > available) {
      rows += 1
      used = 0
    }
    used += item
  }
  return names.length === 0 ? 0 : rows
}

const LEGEND_ROW = 22

/**
 * The chart on screen as a file shows it: the same option (zoom included), plus what the screen
 * has outside the canvas: a legend above (the app's legend is a list beside the chart) and the
 * background behind it. The zoom slider is a control, not part of the picture, so it is left out.
 * Series switched off stay off: the live legend's selection goes into the file's legend (which
 * filters them out of the drawing), and the legend names only the series drawn.
 */
export function fileOption(
  live: LiveOption,
  view: { width: number; height: number; background: string; textColor: string },
): { option: LiveOption; width: number; height: number } {
  const selected = liveSelection(live)
  const series = (live.series as Array<{ id?: string; name?: string }> | undefined) ?? []
  // The annotations ride on a series of their own (chartOption.ts); they are marks, not a line to name.
  const names = series
    .filter((entry) => entry.id !== MARKERS_SERIES)
    .map((entry) => String(entry.name ?? ''))
    .filter((name) => selected[name] !== false)
  const extra = legendRows(names, view.width) * LEGEND_ROW
  const grids = (live.grid as Array<Record<string, unknown>> | undefined) ?? [{}]
  const zooms = (live.dataZoom as Array<Record<string, unknown>> | undefined) ?? []
  return {
    width: view.width,
    height: view.height + extra,
    option: {
      ...live,
      animation: false,
      backgroundColor: view.background,
      legend: [{ show: true, type: 'plain', top: 8, left: 'center', data: names, selected: { ...selected }, textStyle: { color: view.textColor } }],
      grid: grids.map((grid) => ({ ...grid, top: Number(grid.top ?? 36) + extra, bottom: 44 })),
      dataZoom: zooms.map((zoom) => (zoom.type === 'slider' ? { ...zoom, show: false } : zoom)),
    },
  }
}
