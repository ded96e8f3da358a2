import type { ChartField, ChartLine, ChartResult, ChartStyle } from './chart-shapes'
import { escapeHtml, formatCompact } from './value-format'
import { categoryText } from './series'
import { TOTAL_LINE } from '../lines'
import { axisIndexes, isTotal, totalOnOwnAxis } from './chart-axes'
import { chartSeriesName, legendSelection } from './chart-selection'

/**
 * One piece of an ECharts option as plain data. common/ imports no package, ECharts' types
 * included; ECharts takes the option as it is, in the page's chart and in main's SVG drawing alike.
 */
type OptionPiece = Record<string, unknown>

/** The whole option: the pieces ECharts reads (grid, axes, dataset, series…), by name. */
export interface ChartOption {
  [piece: string]: unknown
  series: OptionPiece[]
}

export interface ChartInput {
  result: ChartResult
  fields: readonly ChartField[]
  type: ChartStyle
  /** Series switched off at the time the option is built; later toggles go through `legendSelection` alone. */
  hidden: ReadonlySet<string>
  showMarkers: boolean
  colors: ReadonlyMap<string, string>
  dark: boolean
  /** Builds the axis tooltip for a category index and the series shown there. */
  tooltip: (index: number, shownKeys: string[]) => string
  /** Steps of the value axes (`valueAxisSteps` of the chart's height); undefined: ECharts' default. */
  valueSteps?: number | undefined
  /**
   * The zoom bar under the plot (default true). A board's tile has none: the bar and its margin
   * took 40 px of a tile's 200, the plot's height; the wheel and a drag still zoom.
   */
  zoomBar?: boolean
}

/** The plot's margins inside the chart: the y-axis labels on the left, a little air (or the second axis) on the right. */
const GRID = { left: 64, right: 24, rightWithSecondAxis: 64, top: 36, bottom: 72, bottomWithoutZoomBar: 32 }

/**
 * The point budget main reduces series to for a chart `width` CSS pixels wide: one point per
 * pixel column of the plot, each pair of columns carrying its bucket's min and max. The line
 * joining them spans the bucket's whole range, so a spike or a dip one sample wide still shows;
 * more points would land on columns already drawn and cost paint time (a toggle repaints all 50
 * lines) for nothing the eye can see. CSS pixels, not device pixels: at 2× the 1 px line covers
 * two device pixels anyway.
 */
export function pointBudget(width: number): number {
  return Math.max(2, Math.round(width) - GRID.left - GRID.right)
}

const PLOT_PER_VALUE_STEP = 24
/** ECharts' own `splitNumber` for a value axis. */
const ECHARTS_VALUE_STEPS = 5

/**
 * How many steps the value axes may take in a chart `height` CSS pixels tall: one label per 24 px
 * of plot, so a board's short tile (a plot of 50 px between its margins) shows three labels where
 * ECharts' default of five stacked seven on top of each other; undefined leaves a tall chart
 * ECharts' own choice.
 */
export function valueAxisSteps(height: number, zoomBar = true): number | undefined {
  const plot = height - GRID.top - (zoomBar ? GRID.bottom : GRID.bottomWithoutZoomBar)
  return plot >= ECHARTS_VALUE_STEPS * PLOT_PER_VALUE_STEP ? undefined : Math.max(1, Math.floor(plot / PLOT_PER_VALUE_STEP))
}

/** The series that carries the markers: drawn once, whichever lines are switched off. */
export const MARKERS_SERIES = '__markers__'

function markLine(input: ChartInput): OptionPiece | undefined {
  const categories = new Set(input.result.categories)
  const markers = input.result.markers.filter((marker) => categories.has(marker.date))
  if (!input.showMarkers || markers.length === 0) return undefined
  return {
    symbol: ['none', 'circle'],
    symbolSize: 7,
    silent: false,
    animation: false,
    label: { show: false },
    lineStyle: { color: '#e0a400', type: 'dashed', width: 1.5 },
    emphasis: { label: { show: true, formatter: (params: { name?: unknown }) => String(params.name).slice(0, 60), position: 'insideEndTop' } },
    tooltip: {
      trigger: 'item',
      formatter: (params: { name?: unknown; value?: unknown }) =>
        `<b>${escapeHtml(String(params.value ?? ''))}</b><br/>${escapeHtml(String(params.name ?? ''))}`,
    },
    data: markers.map((marker) => ({ xAxis: marker.date, name: `${marker.message} — ${marker.author}`, value: marker.date })),
  }
}

/** The dataset column of the categories, and of the series at `index`. */
const CATEGORY_COLUMN = 'category'
const seriesColumn = (index: number): string => `s${index}`

/**
 * All series as one dataset every series reads: a flat Float64Array of rows (the category's
 * index, then each series' value, NaN for a gap). ECharts copies a typed array into its store
 * in one loop, and for typed arrays it skips naming every point after its category (a string
 * key and a count per point, per series: 50 lines × 1,000 points took ~40 ms of a first paint).
 * The category column holds indexes into the x-axis' own `data`, which ECharts takes as they are.
 */
function dataset(result: ChartResult): OptionPiece {
  const columns = 1 + result.series.length
  const rows = result.categories.length
  const source = new Float64Array(rows * columns)
  for (let row = 0; row < rows; row++) source[row * columns] = row
  result.series.forEach((series, index) => {
    const values = series.values
    for (let row = 0; row < rows; row++) source[row * columns + 1 + index] = values[row] ?? Number.NaN
  })
  return {
    // ECharts takes a typed array as a dataset's source as it does for `series.data` (Source.ts).
    source,
    sourceHeader: false,
    dimensions: [
      { name: CATEGORY_COLUMN, type: 'ordinal' as const },
      ...result.series.map((_, index) => ({ name: seriesColumn(index), type: 'float' as const })),
    ],
  }
}

function seriesOption(
  series: ChartLine,
  index: number,
  input: ChartInput,
  axes: Map<string, number>,
  multiMetric: boolean,
  points: number,
  totalAxis: number | null,
): OptionPiece {
  const color = input.colors.get(series.key) ?? '#888888'
  const comparison = series.role === 'comparison'
  // Lines stack; their comparisons stack among themselves (the earlier period's outline); Total
  // never does, nor does its comparison (on the compare stack it would double the earlier outline).
  const stacked = input.type === 'stacked' && series.line !== TOTAL_LINE
  const name = chartSeriesName(series, multiMetric)
  const common = {
    id: series.key,
    name,
    datasetIndex: 0,
    encode: { x: CATEGORY_COLUMN, y: seriesColumn(index) },
    yAxisIndex: totalAxis !== null && isTotal(series) ? totalAxis : (axes.get(series.metric) ?? 0),
    itemStyle: { color },
  }
  if (input.type === 'bar') {
    return {
      ...common,
      type: 'bar',
      large: points > 400,
      itemStyle: comparison ? { color, opacity: 0.45, borderColor: color, borderType: 'dashed', borderWidth: 1 } : { color },
      emphasis: { disabled: points > 400 },
    }
  }
  return {
    ...common,
    type: 'line',
    showSymbol: false,
    connectNulls: false,
    // No `sampling`: main already reduced long series to a point per pixel column (min/max kept).
    // 1 px lines are hairlines to the canvas, drawn on a fast path: with 50 lines of 1,000 points
    // a 1.6 px stroke took longer to rasterize than ECharts took to lay the chart out.
    lineStyle: { width: series.role === 'total' ? 2.5 : 1, type: comparison ? 'dashed' : 'solid', opacity: comparison ? 0.75 : 1 },
    ...(stacked
      ? { stack: `${comparison ? 'compare' : 'metric'}:${series.metric}`, ...(comparison ? {} : { areaStyle: { opacity: 0.35 } }) }
      : input.type === 'area' && series.role === 'line'
        ? { areaStyle: { opacity: 0.12 } }
        : {}),
    emphasis: { disabled: true },
  }
}

/** An empty series that only holds the markers, so switching lines off never takes them away. */
function markersSeries(input: ChartInput): OptionPiece | null {
  const marks = markLine(input)
  return marks === undefined ? null : { id: MARKERS_SERIES, name: 'Annotations', type: 'line', data: [], silent: true, markLine: marks }
}

/** The whole ECharts option for a result: category x-axis of the API's own strings, never a time axis. */
export function buildChartOption(input: ChartInput): ChartOption {
  const { result } = input
  const zoomBar = input.zoomBar ?? true
  const metrics = [...new Set(result.series.map((series) => series.metric))]
  const axes = axisIndexes(metrics, input.fields)
  const percentOnRight = [...axes.values()].includes(1)
  // Judged on the lines shown: a Total switched off must not leave an empty "Total" axis on the right.
  const shown = { ...result, series: result.series.filter((series) => !input.hidden.has(series.key)) }
  const totalAxis = totalOnOwnAxis(shown, input.type, percentOnRight) ? 1 : null
  const twoAxes = percentOnRight || totalAxis !== null
  const points = result.categories.length
  const multiMetric = metrics.length > 1
  const markers = markersSeries(input)
  // Total's own axis shows the same metrics as the left one.
  const axisMetrics = (index: number): string[] => metrics.filter((name) => axes.get(name) === (totalAxis === index ? 0 : index))
  const percentAxis = (index: number): boolean =>
    axisMetrics(index).some((name) => input.fields.find((field) => field.name === name)?.displayType === 'percent')
  const axisColor = input.dark ? '#9aa3b5' : '#6b7385'
  // Total's own axis wears Total's colour, its line drawn as thick as Total's: which line it
  // measures reads at a glance, where a second grey scale read as the lines' own.
  const totalColor = input.colors.get(result.series.find(isTotal)?.key ?? '') ?? axisColor
  const ownTotal = (index: number): boolean => totalAxis === index
  const yAxis = (index: number) => ({
    type: 'value' as const,
    position: index === 0 ? ('left' as const) : ('right' as const),
    scale: false,
    splitLine: { show: index === 0, lineStyle: { color: input.dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.07)' } },
    axisLabel: { color: ownTotal(index) ? totalColor : axisColor, formatter: (value: number) => formatCompact(value, percentAxis(index)) },
    ...(ownTotal(index) ? { axisLine: { show: true, lineStyle: { color: totalColor, width: 2.5 } } } : {}),
    ...(input.valueSteps === undefined ? {} : { splitNumber: input.valueSteps }),
    name: ownTotal(index) ? 'Total' : axisMetrics(index).join(', '),
    nameTextStyle: {
      color: ownTotal(index) ? totalColor : axisColor,
      fontWeight: ownTotal(index) ? ('bold' as const) : ('normal' as const),
      align: index === 0 ? ('left' as const) : ('right' as const),
    },
  })
  return {
    backgroundColor: 'transparent',
    // Data arrives reduced to what the plot can show; animating it would only delay the paint.
    animation: false,
    // Not drawn (the legend is ChartLegend.vue): it holds which series are switched off.
    legend: { show: false, selected: legendSelection(result, input.hidden) },
    // Fixed margins that fit the compact axis labels: no 'outerBounds' pass measuring the labels
    // to fit the grid again at every update (and a legend toggle is an update).
    grid: {
      left: GRID.left,
      right: twoAxes ? GRID.rightWithSecondAxis : GRID.right,
      top: GRID.top,
      bottom: zoomBar ? GRID.bottom : GRID.bottomWithoutZoomBar,
      outerBoundsMode: 'none',
    },
    tooltip: {
      trigger: 'axis',
      className: 'report-tooltip',
      confine: true,
      enterable: false,
      axisPointer: { type: input.type === 'bar' ? 'shadow' : 'line' },
      formatter: (params: unknown) => {
        const list = Array.isArray(params) ? params : [params]
        const index = (list[0] as { dataIndex?: number } | undefined)?.dataIndex ?? 0
        return input.tooltip(
          index,
          list.map((entry) => String((entry as { seriesId?: string }).seriesId ?? '')),
        )
      },
    },
    xAxis: {
      type: 'category',
      data: result.categories,
      boundaryGap: input.type === 'bar',
      // The first and last labels sit inside the plot (a centred last date was cut at the right edge).
      axisLabel: {
        color: axisColor,
        hideOverlap: true,
        alignMinLabel: 'left',
        alignMaxLabel: 'right',
        ...(result.categoryLabels ? { formatter: (value: string) => categoryText(result, value) } : {}),
      },
      axisLine: { lineStyle: { color: input.dark ? '#4a5263' : '#c9ceda' } },
    },
    yAxis: twoAxes ? [yAxis(0), yAxis(1)] : [yAxis(0)],
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      ...(zoomBar
        ? [
            {
              type: 'slider',
              xAxisIndex: 0,
              height: 20,
              bottom: 14,
              filterMode: 'none',
              showDataShadow: false,
              labelFormatter: (_value: number, text: string) => categoryText(result, text),
            },
          ]
        : []),
    ],
    dataset: dataset(result),
    series: [...result.series.map((series, index) => seriesOption(series, index, input, axes, multiMetric, points, totalAxis)), ...(markers ? [markers] : [])],
  }
}
