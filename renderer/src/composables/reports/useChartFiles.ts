import { ref, type Ref } from 'vue'
import type { ChartFileFormat, TimeSeriesView } from '@contract'
import type { EChartsType } from 'echarts/core'
import { api, errorMessage, unwrap } from '../../api/bridge'
import { init } from '../../components/reports/echarts'
import { chartTable, fileOption, hiddenSeriesKeys, type LiveOption } from '../../domain/reports/chartFile'

/**
 * "Save chart": the chart as PNG or SVG, or its numbers as csv, written by main (its save
 * dialog in the app, a new name in the exports folder of the web host). The page sends the
 * content and a suggested name; it never names a path and hears back only the file's name.
 */

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
  function render(format: 'png' | 'svg', live: EChartsType, liveOption: LiveOption): string {
    const { option, width, height } = fileOption(liveOption, {
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
      // Read once: the image and the csv leave out the same series, the ones switched off on screen.
      const liveOption = live?.getOption() as LiveOption | undefined
      const saved = await unwrap(
        format === 'csv'
          ? api().exports.saveChart({ format, name, table: chartTable(result, hiddenSeriesKeys(result, liveOption)) })
          : api().exports.saveChart({ format, name, content: render(format, live as EChartsType, liveOption ?? {}) }),
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
