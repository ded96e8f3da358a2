import { describe, expect, it } from 'vitest'
import type { LineSeriesOption } from 'echarts/charts'
import { axisIndexes, buildChartOption, type ChartInput } from '../../../../renderer/src/domain/reports/chartOption'
import { seriesColors, withComparison } from '../../../../renderer/src/domain/reports/series'
import { tooltipHtml, tooltipRows } from '../../../../renderer/src/domain/reports/tooltip'
import { info, result } from './fixtures'

const input = (overrides: Partial<ChartInput> = {}): ChartInput => ({
  result,
  fields: info.dataFields,
  type: 'line',
  hidden: new Set(),
  showMarkers: true,
  colors: seriesColors(result, false),
  dark: false,
  tooltip: () => '',
  ...overrides,
})
const seriesOf = (option: ReturnType<typeof buildChartOption>): LineSeriesOption[] => option.series as LineSeriesOption[]

describe('chart option', () => {
  it('uses a category axis of the result’s own strings, gaps for nulls and no symbols', () => {
    const option = buildChartOption(input())
    expect(option.xAxis).toMatchObject({ type: 'category', data: result.categories })
    const france = seriesOf(option).find((series) => series.id === 'impressions|FR')
    expect(france).toMatchObject({ type: 'line', connectNulls: false, showSymbol: false, data: [10, null, 30] })
  })

  it('draws the comparison dashed in its line’s color and hides hidden series', () => {
    const colors = seriesColors(result, false)
    expect(colors.get('impressions|FR|compare')).toBe(colors.get('impressions|FR'))
    const option = buildChartOption(input({ hidden: new Set(withComparison(result, 'impressions|DE')) }))
    const ids = seriesOf(option).map((series) => series.id)
    expect(ids).toEqual(['impressions|FR', 'impressions|__total__', 'impressions|FR|compare'])
    expect(seriesOf(option)[2]?.lineStyle?.type).toBe('dashed')
    expect(withComparison(result, 'impressions|FR')).toEqual(['impressions|FR', 'impressions|FR|compare'])
    const twoTotals = { ...result, series: [...result.series, { ...result.series[2]!, key: 'ctr|__total__', metric: 'ctr' }] }
    const totals = seriesColors(twoTotals, false)
    expect(totals.get('ctr|__total__')).not.toBe(totals.get('impressions|__total__'))
  })

  it('stacks the lines, and their comparisons apart, never Total; markers go on one series', () => {
    const series = seriesOf(buildChartOption(input({ type: 'stacked' })))
    expect(series.filter((entry) => entry.stack).map((entry) => [entry.id, entry.stack])).toEqual([
      ['impressions|FR', 'metric:impressions'],
      ['impressions|DE', 'metric:impressions'],
      ['impressions|FR|compare', 'compare:impressions'],
    ])
    expect(series.find((entry) => entry.id === 'impressions|FR|compare')?.areaStyle).toBeUndefined()
    expect(series.filter((entry) => entry.markLine).map((entry) => entry.id)).toEqual(['impressions|FR'])
    const markLine = series[0]?.markLine as { data: { xAxis: string }[] }
    expect(markLine.data).toEqual([expect.objectContaining({ xAxis: '2026-02-02' })])
    expect(seriesOf(buildChartOption(input({ showMarkers: false }))).some((entry) => entry.markLine)).toBe(false)
  })

  it('gives percent metrics a second axis when counts share the chart', () => {
    expect([...axisIndexes(['impressions', 'ctr', 'revenue'], info.dataFields)]).toEqual([
      ['impressions', 0],
      ['ctr', 1],
      ['revenue', 0],
    ])
    expect([...axisIndexes(['ctr'], info.dataFields)]).toEqual([['ctr', 0]])
    expect(Array.isArray(buildChartOption(input()).yAxis) && (buildChartOption(input()).yAxis as unknown[]).length).toBe(1)
  })
})

describe('tooltip', () => {
  it('sorts by value with gaps last and the change against the comparison', () => {
    const shown = new Set(result.series.map((series) => series.key))
    const rows = tooltipRows(result, 1, shown, info.dataFields, seriesColors(result, false))
    expect(rows.map((row) => [row.label, row.value])).toEqual([
      ['Germany <b>', 60],
      ['Total', 60],
      ['France', null],
    ])
    const first = tooltipRows(result, 0, shown, info.dataFields, seriesColors(result, false))
    expect(first.find((row) => row.label === 'France')?.change).toBe(100)
  })

  it('escapes the platform’s text and lists the markers of the category', () => {
    const html = tooltipHtml(result, 1, new Set(['impressions|DE']), info.dataFields, seriesColors(result, false), true)
    expect(html).toContain('Germany &#60;b&#62;')
    expect(html).not.toContain('<b>Germany')
    expect(html).toContain('Floor prices &#60;raised&#62;')
    expect(html).toContain('vs 2026-01-30')
  })
})
