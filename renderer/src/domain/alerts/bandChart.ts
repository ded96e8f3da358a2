/**
 * An alert rule's picture of one line, for the backtest in the report builder and the fired
 * alert's view: the line itself, its seasonal baseline (dashed), the band between `low` and
 * `high` where the rule stays quiet (Grafana style: a shaded band, drawn as `low` plus a stacked
 * `high − low`), and a marker on every bucket the rule fired. Kept apart from the report chart's
 * option (domain/reports/chartOption.ts) on purpose: these series are the rule's, not the report's.
 */
import type { ComposeOption } from 'echarts/core'
import type { LineSeriesOption, ScatterSeriesOption } from 'echarts/charts'
import type { DataZoomComponentOption, GridComponentOption, MarkLineComponentOption, TooltipComponentOption } from 'echarts/components'
import type { AlertSeriesView } from '@contract'
import { formatCompact } from '../../../../common/charts/value-format'

export type BandChartOption = ComposeOption<
  LineSeriesOption | ScatterSeriesOption | GridComponentOption | TooltipComponentOption | DataZoomComponentOption | MarkLineComponentOption
>

export interface BandChartInput {
  categories: readonly string[]
  series: Pick<AlertSeriesView, 'label' | 'values' | 'baseline' | 'low' | 'high' | 'fired'>
  color: string
  dark: boolean
  /** The bucket a fired alert is about: drawn larger, with a marked line. */
  focusIndex?: number
  /** Buckets from here on are inside the data lag: drawn, never judged; a marked line says where. */
  lagFromIndex?: number
}

/** The names of the drawn series, so tests and the spoken description can find them. */
export const BAND_SERIES = { value: 'value', baseline: 'baseline', low: 'band-low', width: 'band', fired: 'fired' } as const
export const FIRED_COLOR = { light: '#c0284a', dark: '#ff7b93' }

/** The band's two stacked parts: `low`, and `high − low` above it; a bucket with either end missing is a gap. */
export function bandParts(low: ReadonlyArray<number | null>, high: ReadonlyArray<number | null>): { base: Array<number | null>; width: Array<number | null> } {
  const base = low.map((value, index) => (value === null || high[index] === null || high[index] === undefined ? null : value))
  const width = low.map((value, index) => {
    const top = high[index]
    return value === null || top === null || top === undefined ? null : Math.max(0, top - value)
  })
  return { base, width }
}

/** `[index, value]` of every bucket that fired and has a value. */
export function firedPoints(series: Pick<AlertSeriesView, 'values' | 'fired'>): Array<[number, number]> {
  const points: Array<[number, number]> = []
  series.fired.forEach((fired, index) => {
    const value = series.values[index]
    if (fired && value !== null && value !== undefined) points.push([index, value])
  })
  return points
}

export function buildBandOption(input: BandChartInput): BandChartOption {
  const { categories, series, color, dark, focusIndex, lagFromIndex } = input
  const text = dark ? '#d5d9e3' : '#3c4257'
  const firedColor = dark ? FIRED_COLOR.dark : FIRED_COLOR.light
  const { base, width } = bandParts(series.low, series.high)
  const marked = [
    ...(focusIndex === undefined ? [] : [{ xAxis: focusIndex, name: 'Fired', lineStyle: { color: firedColor, type: 'solid' as const } }]),
    ...(lagFromIndex === undefined || lagFromIndex >= categories.length
      ? []
      : [{ xAxis: lagFromIndex, name: 'Data lag', lineStyle: { color: text, type: 'dotted' as const } }]),
  ]
  return {
    animation: false,
    backgroundColor: 'transparent',
    grid: { left: 64, right: 24, top: 24, bottom: 64 },
    tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? formatCompact(value, false) : '—') },
    xAxis: { type: 'category', data: [...categories], axisLabel: { color: text }, boundaryGap: false },
    yAxis: { type: 'value', axisLabel: { color: text, formatter: (value: number) => formatCompact(value, false) }, splitLine: { lineStyle: { opacity: 0.3 } } },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 12 }],
    series: [
      { name: BAND_SERIES.low, type: 'line', data: base, stack: 'band', symbol: 'none', lineStyle: { opacity: 0 }, tooltip: { show: false }, silent: true },
      {
        name: BAND_SERIES.width,
        type: 'line',
        data: width,
        stack: 'band',
        symbol: 'none',
        lineStyle: { opacity: 0 },
        areaStyle: { color, opacity: dark ? 0.22 : 0.16 },
        tooltip: { show: false },
        silent: true,
      },
      { name: BAND_SERIES.baseline, type: 'line', data: [...series.baseline], symbol: 'none', lineStyle: { color, type: 'dashed', width: 1, opacity: 0.8 } },
      {
        name: BAND_SERIES.value,
        type: 'line',
        data: [...series.values],
        symbol: 'none',
        lineStyle: { color, width: 2 },
        itemStyle: { color },
        markLine: marked.length === 0 ? undefined : { symbol: 'none', silent: true, label: { color: text, formatter: '{b}' }, data: marked },
      },
      {
        name: BAND_SERIES.fired,
        type: 'scatter',
        data: firedPoints(series).map(([index, value]) => ({ value: [index, value], symbolSize: index === focusIndex ? 14 : 9 })),
        itemStyle: { color: firedColor, borderColor: dark ? '#1b1d24' : '#ffffff', borderWidth: 1.5 },
        z: 5,
      },
    ],
  }
}

/** The canvas's spoken description. */
export function bandDescription(series: Pick<AlertSeriesView, 'label' | 'fired'>, categories: number): string {
  const fired = series.fired.filter(Boolean).length
  return `${series.label} over ${categories} buckets with its baseline band; the rule fired ${fired === 0 ? 'nowhere' : `${fired} time${fired === 1 ? '' : 's'}`}.`
}
