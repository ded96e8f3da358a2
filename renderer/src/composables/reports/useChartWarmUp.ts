import { onBeforeUnmount, onMounted } from 'vue'
import type { EChartsType } from 'echarts/core'
import type { TimeSeriesView } from '@contract'
import { init } from '../../components/reports/echarts'
import { buildChartOption } from '../../../../common/charts/chart-option'
import { selectionChanges } from '../../../../common/charts/chart-selection'
import { TOTAL_LINE } from '../../domain/reports/lines'
import { seriesColors } from '../../../../common/charts/series'
import { browserIdle, type IdleScheduler } from '../../lib/idle'

/** Once per page: the code stays compiled for the session. */
let warmed = false

/** A small result of the same shape as a real one: three lines (one of them Total) over two days of hours, one gap. */
export function warmUpResult(): TimeSeriesView {
  const categories = Array.from({ length: 48 }, (_, hour) => `2026-01-${hour < 24 ? '01' : '02'} ${String(hour % 24).padStart(2, '0')}:00:00`)
  const line = (key: string, label: string, role: 'line' | 'total', level: number) => ({
    key: `requests|${key}`,
    metric: 'requests',
    line: key,
    label,
    role,
    values: categories.map((_, index) => (index === 7 ? null : level + (index % 5))),
    stats: { total: 0, average: 0, min: 0, max: 0, change: null, points: categories.length },
  })
  return {
    ranAt: '2026-01-03T00:00:00.000Z',
    durationMs: 0,
    range: { start: '2026-01-01 00:00:00', end: '2026-01-02 23:00:00', timezone: 0, days: 2 },
    comparisonRange: null,
    granularity: 'granularity_hour',
    categories,
    comparisonCategories: [],
    series: [line('a', 'A', 'line', 10), line('b', 'B', 'line', 20), line(TOTAL_LINE, 'Total', 'total', 30)],
    markers: [],
    sourcePoints: categories.length,
    reduced: false,
    notes: [],
  }
}

/**
 * The first chart of a session was the slowest by far: V8 compiles each function of ECharts the
 * first time it runs, so opening a preset paid for compiling the whole paint path on top of the
 * paint. Once the Reports view is idle (and only if no chart was drawn yet), this draws a small
 * chart of the same kind on a canvas that is never in the page (the same option builder, dataset,
 * zoom, tooltip, and a legend toggle) and throws it away, so the user's first chart runs on
 * compiled code. It costs a few tens of milliseconds of idle time, once per session.
 */
export function useChartWarmUp(hasChart: () => boolean, idle: IdleScheduler = browserIdle(3_000), draw: () => void = drawWarmUpChart): void {
  let handle: number | null = null
  onMounted(() => {
    if (warmed || hasChart()) return
    handle = idle.request(() => {
      handle = null
      if (warmed || hasChart()) return
      warmed = true
      draw()
    })
  })
  onBeforeUnmount(() => {
    if (handle !== null) idle.cancel(handle)
  })
}

/** The small chart, drawn on a canvas never in the page, a line switched off and on again, and thrown away. */
export function drawWarmUpChart(
  create: () => EChartsType = () => init(document.createElement('div'), null, { renderer: 'canvas', width: 600, height: 300 }),
): void {
  const result = warmUpResult()
  const chart = create()
  try {
    const colors = seriesColors(result, false)
    chart.setOption(buildChartOption({ result, fields: [], type: 'line', hidden: new Set(), showMarkers: false, colors, dark: false, tooltip: () => '' }))
    // A line off and on again, sent as ReportChart sends a legend toggle.
    const toggled = new Set([result.series[0]?.key ?? ''])
    const { hide } = selectionChanges(result, new Set(), toggled)
    const { show } = selectionChanges(result, toggled, new Set())
    chart.dispatchAction({ type: 'legendUnSelect', batch: hide.map((name) => ({ name })) }, { flush: true })
    chart.dispatchAction({ type: 'legendSelect', batch: show.map((name) => ({ name })) }, { flush: true })
  } finally {
    chart.dispose()
  }
}

/** For tests: a new page, as far as the warm-up knows. */
export function forgetWarmUp(): void {
  warmed = false
}
