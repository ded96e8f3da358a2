import { ref, type Ref } from 'vue'
import type { ChartFileFormat, ChartTable, TimeSeriesView } from '@contract'
import type { EChartsType } from 'echarts/core'
import { api, errorMessage, unwrap } from '../../api/bridge'
import { init } from '../../components/reports/echarts'
import { MARKERS_SERIES } from '../../domain/reports/chartOption'

/**
 * "Save chart": the chart as PNG or SVG, or its numbers as csv, written by main (its save
 * dialog in the app, a new name in the exports folder of the web host). The page sends the
 * content and a suggested name; it never names a path and hears back only the file's name.
 */

/** An ECharts option as `getOption()` gives it: every component a list. */
type LiveOption = Record<string, unknown>

/**
 * The chart's numbers as the table behind it: one row per category (the comparison's own
 * category beside it), one column per series in the result's order, and a Total row of the
 * totals the series table shows (empty where the metric cannot be added up).
 */
export function chartTable(result: TimeSeriesView): ChartTable {
  const comparison = result.comparisonCategories.length > 0
  const metrics = new Set(result.series.map((series) => series.metric))
  const title = (label: string, metric: string) => (metrics.size > 1 ? `${label} · ${metric}` : label)
  const columns = [
    result.granularity.startsWith('granularity_') ? 'Time' : result.granularity,
    ...(comparison ? ['Compared with'] : []),
    ...result.series.map((series) => title(series.label, series.metric)),
  ]
  const rows = result.categories.map((category, index) => [
    category,
    ...(comparison ? [result.comparisonCategories[index] ?? ''] : []),
    ...result.series.map((series) => series.values[index] ?? null),
  ])
  const total = ['Total', ...(comparison ? [''] : []), ...result.series.map((series) => series.stats.total)]
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
 * The chart on screen as a file shows it: the same option (zoom included, hidden series left
 * out), plus what the screen has outside the canvas: a legend above (the app's legend is a
 * list beside the chart) and the background behind it. The zoom slider is a control, not
 * part of the picture, so it is left out.
 */
export function fileOption(
  live: LiveOption,
  view: { width: number; height: number; background: string; textColor: string },
): { option: LiveOption; width: number; height: number } {
  const series = (live.series as Array<{ id?: string; name?: string }> | undefined) ?? []
  // The annotations ride on a series of their own (chartOption.ts); they are marks, not a line to name.
  const names = series.filter((entry) => entry.id !== MARKERS_SERIES).map((entry) => String(entry.name ?? ''))
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
      legend: [{ show: true, type: 'plain', top: 8, left: 'center', data: names, textStyle: { color: view.textColor } }],
      grid: grids.map((grid) => ({ ...grid, top: Number(grid.top ?? 36) + extra, bottom: 44 })),
      dataZoom: zooms.map((zoom) => (zoom.type === 'slider' ? { ...zoom, show: false } : zoom)),
    },
  }
}

/** `getDataURL` hands back a data: URL; the bridge takes the base64 after its comma. */
const base64Of = (dataUrl: string): string => dataUrl.slice(dataUrl.indexOf(',') + 1)

export function useChartFiles(options: {
  /** The chart as painted now (ReportChart's ECharts instance); undefined before it is. */
  instance: () => EChartsType | undefined
  result: Ref<TimeSeriesView | null>
  /** A suggested base name: the preset, or the report. Main makes it safe and adds the extension. */
  name: Ref<string>
  dark: Ref<boolean>
  /** What is behind the chart on screen, and the legend's text color. */
  colors: Ref<{ background: string; text: string }>
  notify: (kind: 'success' | 'error' | 'info', text: string) => void
}) {
  const busy = ref(false)

  /** Renders the file's option on an ECharts instance of its own, so the chart on screen never changes. */
  function render(format: 'png' | 'svg', live: EChartsType): string {
    const { option, width, height } = fileOption(live.getOption() as LiveOption, {
      width: live.getWidth(),
      height: live.getHeight(),
      background: options.colors.value.background,
      textColor: options.colors.value.text,
    })
    const theme = options.dark.value ? 'dark' : undefined
    // SVG: ECharts' server-side rendering gives the document as a string; PNG: a canvas off screen.
    const chart =
      format === 'svg'
        ? init(null, theme, { renderer: 'svg', ssr: true, width, height })
        : init(document.createElement('div'), theme, { renderer: 'canvas', width, height })
    try {
      chart.setOption(option)
      return format === 'svg'
        ? chart.renderToSVGString()
        : base64Of(chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: options.colors.value.background }))
    } finally {
      chart.dispose()
    }
  }

  async function save(format: ChartFileFormat): Promise<void> {
    const result = options.result.value
    const live = options.instance()
    if (busy.value || result === null || (format !== 'csv' && live === undefined)) return
    busy.value = true
    try {
      const name = options.name.value
      const saved = await unwrap(
        format === 'csv'
          ? api().exports.saveChart({ format, name, table: chartTable(result) })
          : api().exports.saveChart({ format, name, content: render(format, live as EChartsType) }),
      )
      if (saved === null) return
      // The csv has the points the chart drew; its Total row, like the table, counts every point.
      const reduced = format === 'csv' && result.reduced ? ` (${result.categories.length} drawn points per line; the Total row counts every point)` : ''
      options.notify('success', `Saved ${saved.fileName}${reduced}`)
    } catch (error) {
      options.notify('error', `The chart could not be saved: ${errorMessage(error)}`)
    } finally {
      busy.value = false
    }
  }

  return { busy, save }
}
