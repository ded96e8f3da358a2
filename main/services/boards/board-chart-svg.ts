import * as echarts from 'echarts'
import type { TimeSeriesView } from '@contract'
import { buildChartOption } from '../../../common/charts/chart-option'
import { legendSeries, seriesColors } from '../../../common/charts/series'
import { PAGE_FONT, PRINT_COLORS, round, svgText } from './board-svg-text'
import type { PageBox } from './board-page-layout'

/**
 * A chart tile drawn by ECharts' server-side SVG renderer, with the option the page builds
 * (common/charts), light colours, without what only a screen uses: the zoom slider, the tooltip.
 * A legend row of its lines goes under the plot (on screen the legend is a component of its own).
 */

const LEGEND_HEIGHT = 18
/** The plot's bottom margin without the zoom slider: the x-axis labels. */
const PRINT_GRID_BOTTOM = 28

export interface ChartTileInput {
  result: TimeSeriesView
  type: 'line' | 'area' | 'stacked' | 'bar'
  hidden: readonly string[]
}

/** The chart's own `<svg>` content, placed inside `box` (its outer element dropped: ids and defs stay). */
export function chartSvg(input: ChartTileInput, box: PageBox): string {
  const colors = seriesColors(input.result, false)
  const hidden = new Set(input.hidden)
  const plotHeight = Math.max(40, box.height - LEGEND_HEIGHT)
  const option = buildChartOption({ result: input.result, fields: [], type: input.type, hidden, showMarkers: false, colors, dark: false, tooltip: () => '' })
  const grid = option.grid as Record<string, unknown>
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: Math.round(box.width), height: Math.round(plotHeight) })
  let svg: string
  try {
    chart.setOption({
      ...option,
      animation: false,
      dataZoom: [],
      tooltip: { show: false },
      textStyle: { fontFamily: PAGE_FONT },
      grid: { ...grid, bottom: PRINT_GRID_BOTTOM },
    })
    svg = chart.renderToSVGString()
  } finally {
    chart.dispose()
  }
  return `<g transform="translate(${round(box.x)} ${round(box.y)})">${innerSvg(svg)}</g>${legendRow(input, colors, hidden, box, plotHeight)}`
}

/** What is inside ECharts' outer `<svg …>`: it sits in the page's own SVG as a group. */
function innerSvg(svg: string): string {
  const open = svg.indexOf('>', svg.indexOf('<svg'))
  const close = svg.lastIndexOf('</svg>')
  return open < 0 || close < 0 ? '' : svg.slice(open + 1, close)
}

function legendRow(input: ChartTileInput, colors: ReadonlyMap<string, string>, hidden: ReadonlySet<string>, box: PageBox, plotHeight: number): string {
  const shown = legendSeries(input.result).filter((series) => !hidden.has(series.key))
  const y = box.y + plotHeight + 12
  let x = box.x + 8
  const parts: string[] = []
  for (const [index, series] of shown.entries()) {
    const width = Math.min(160, 24 + [...series.label].length * 6.5)
    if (x + width > box.x + box.width - 8) {
      parts.push(svgText(`+${shown.length - index} more`, x, y, 80, { size: 10, color: PRINT_COLORS.muted }))
      break
    }
    parts.push(`<rect x="${round(x)}" y="${round(y - 8)}" width="10" height="10" rx="2" fill="${colors.get(series.key) ?? '#888888'}"/>`)
    parts.push(svgText(series.label, x + 14, y, width - 18, { size: 10, color: PRINT_COLORS.text }))
    x += width
  }
  return parts.join('')
}
