import { describe, expect, it } from 'vitest'
import type { LineSeriesOption } from 'echarts/charts'
import { buildChartOption, MARKERS_SERIES, pointBudget, valueAxisSteps, type ChartInput } from '../../../../common/charts/chart-option'
import { axisIndexes, totalOnOwnAxis } from '../../../../common/charts/chart-axes'
import { legendSelection, selectionChanges } from '../../../../common/charts/chart-selection'
import { categoryText, seriesColors, withComparison } from '../../../../common/charts/series'
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
    expect(france).toMatchObject({ type: 'line', connectNulls: false, showSymbol: false })
    // Its values are a column of the one typed-array dataset every series reads (parsed once, shared), gaps as NaN.
    const dataset = option.dataset as { source: Float64Array; dimensions: Array<{ name: string }> }
    expect(dataset.source).toBeInstanceOf(Float64Array)
    const names = dataset.dimensions.map((dimension) => dimension.name)
    const encode = france?.encode as { x: string; y: string }
    const column = (name: string) => Array.from({ length: result.categories.length }, (_, row) => dataset.source[row * names.length + names.indexOf(name)])
    // The category column holds indexes into the x-axis' data.
    expect(column(encode.x)).toEqual([0, 1, 2])
    expect(column(encode.y)).toEqual([10, Number.NaN, 30])
  })

  it('draws the comparison dashed in its line’s color and starts with hidden series unselected', () => {
    const colors = seriesColors(result, false)
    expect(colors.get('impressions|FR|compare')).toBe(colors.get('impressions|FR'))
    const option = buildChartOption(input({ hidden: new Set(withComparison(result, 'impressions|DE')) }))
    // Every series is in the option: hiding one is the (undrawn) legend's selection, not a smaller series array.
    const ids = seriesOf(option).map((series) => series.id)
    expect(ids).toEqual(['impressions|FR', 'impressions|DE', 'impressions|__total__', 'impressions|FR|compare', MARKERS_SERIES])
    expect(option.legend).toEqual({
      show: false,
      selected: { France: true, 'Germany <b>': false, Total: true, 'France (previous period)': true },
    })
    expect(seriesOf(option)[3]?.lineStyle?.type).toBe('dashed')
    expect(withComparison(result, 'impressions|FR')).toEqual(['impressions|FR', 'impressions|FR|compare'])
    const twoTotals = { ...result, series: [...result.series, { ...result.series[2]!, key: 'ctr|__total__', metric: 'ctr' }] }
    const totals = seriesColors(twoTotals, false)
    expect(totals.get('ctr|__total__')).not.toBe(totals.get('impressions|__total__'))
  })

  it('asks main for one point per pixel column of the plot (a min/max pair per two columns)', () => {
    const option = buildChartOption(input())
    const grid = option.grid as { left: number; right: number; outerBoundsMode: string }
    expect(pointBudget(1_000)).toBe(1_000 - grid.left - grid.right)
    expect(pointBudget(10)).toBe(2)
    // The margins are fixed: no label-measuring layout pass at every update.
    expect(grid.outerBoundsMode).toBe('none')
  })

  it('paints cheaply: no animation, no sampling of already reduced data, no symbols, no hover emphasis', () => {
    const option = buildChartOption(input())
    expect(option.animation).toBe(false)
    for (const series of seriesOf(option).filter((entry) => entry.id !== MARKERS_SERIES)) {
      expect(series).toMatchObject({ showSymbol: false, emphasis: { disabled: true } })
      expect(series.sampling).toBeUndefined()
    }
  })

  it('toggles through legend selection, by unique series names, only for what changed', () => {
    const twoMetrics = { ...result, series: [...result.series, { ...result.series[0]!, key: 'clicks|FR', metric: 'clicks' }] }
    const lines = seriesOf(buildChartOption(input({ result: twoMetrics }))).filter((series) => series.id !== MARKERS_SERIES)
    const names = lines.map((series) => series.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toContain('France · clicks')
    expect(Object.keys(legendSelection(twoMetrics, new Set()))).toEqual(names)

    const hidden = new Set(withComparison(result, 'impressions|FR'))
    expect(selectionChanges(result, new Set(), hidden)).toEqual({ show: [], hide: ['France', 'France (previous period)'] })
    expect(selectionChanges(result, hidden, new Set(['impressions|DE']))).toEqual({ show: ['France', 'France (previous period)'], hide: ['Germany <b>'] })
    expect(selectionChanges(result, hidden, hidden)).toEqual({ show: [], hide: [] })
  })

  it('shows the names of a category axis on its labels and zoom, and in the tooltip beside the id', () => {
    const byPublisher = {
      ...result,
      categories: ['17', '42', '7'],
      comparisonCategories: [],
      comparisonRange: null,
      categoryLabels: { '17': 'Daily <Planet>', '42': 'Gazette' },
    }
    const option = buildChartOption(input({ result: byPublisher }))
    const axis = option.xAxis as { data: string[]; axisLabel: { formatter: (value: string) => string } }
    expect(axis.data).toEqual(['17', '42', '7'])
    expect(['17', '42', '7'].map((id) => axis.axisLabel.formatter(id))).toEqual(['Daily <Planet>', 'Gazette', '7'])
    const slider = (option.dataZoom as Array<{ labelFormatter?: (value: number, text: string) => string }>)[1]
    expect(slider?.labelFormatter?.(0, '42')).toBe('Gazette')
    expect(categoryText(byPublisher, '7')).toBe('7')
    const html = tooltipHtml(byPublisher, 0, new Set(['impressions|DE']), info.dataFields, seriesColors(result, false), false)
    expect(html).toContain('Daily &#60;Planet&#62;')
    expect(html).toContain('>17</span>')
    expect(tooltipHtml(byPublisher, 2, new Set(['impressions|DE']), info.dataFields, seriesColors(result, false), false)).toMatch(/^<div[^>]*>7<\/div>/)
    // A time axis keeps ECharts' own labels.
    expect((buildChartOption(input()).xAxis as { axisLabel: { formatter?: unknown } }).axisLabel.formatter).toBeUndefined()
  })

  it('stacks the lines, and their comparisons apart, never Total; markers go on a series of their own', () => {
    const series = seriesOf(buildChartOption(input({ type: 'stacked' })))
    expect(series.filter((entry) => entry.stack).map((entry) => [entry.id, entry.stack])).toEqual([
      ['impressions|FR', 'metric:impressions'],
      ['impressions|DE', 'metric:impressions'],
      ['impressions|FR|compare', 'compare:impressions'],
    ])
    expect(series.find((entry) => entry.id === 'impressions|FR|compare')?.areaStyle).toBeUndefined()
    const totalCompared = { ...result, series: [...result.series, { ...result.series[3]!, key: 'impressions|__total__|compare', line: '__total__' }] }
    expect(
      seriesOf(buildChartOption(input({ type: 'stacked', result: totalCompared }))).find((entry) => entry.id === 'impressions|__total__|compare')?.stack,
    ).toBeUndefined()
    // Their own (empty) series: switching every line off leaves them drawn.
    expect(series.filter((entry) => entry.markLine).map((entry) => [entry.id, entry.data])).toEqual([[MARKERS_SERIES, []]])
    const markLine = series.at(-1)?.markLine as { data: { xAxis: string }[] }
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

describe("chart option: a short chart's value axes", () => {
  it("take one step per 24 px of plot in a short chart, and ECharts' own choice in a tall one", () => {
    // A board's tile at its least height: 52 px of plot between the margins, three labels.
    expect(valueAxisSteps(160)).toBe(2)
    expect(valueAxisSteps(220)).toBe(4)
    expect(valueAxisSteps(400)).toBeUndefined()
    const short = buildChartOption({ ...input(), valueSteps: 1 }).yAxis as Array<Record<string, unknown>>
    for (const axis of short) expect(axis['splitNumber']).toBe(1)
    const tall = buildChartOption(input()).yAxis as Array<Record<string, unknown>>
    for (const axis of tall) expect(axis).not.toHaveProperty('splitNumber')
  })

  it("gives a board tile's chart (no zoom bar) the bar's height for its plot", () => {
    const withBar = buildChartOption(input())
    expect((withBar.dataZoom as Array<{ type: string }>).map((zoom) => zoom.type)).toEqual(['inside', 'slider'])
    expect(withBar.grid).toMatchObject({ bottom: 72 })
    const compact = buildChartOption({ ...input(), zoomBar: false })
    // The wheel and a drag still zoom; only the bar goes, and with it 40 px of margin.
    expect((compact.dataZoom as Array<{ type: string }>).map((zoom) => zoom.type)).toEqual(['inside'])
    expect(compact.grid).toMatchObject({ bottom: 32 })
    // The same 120 px tile: 52 px of plot without the bar (two steps), 12 with it (one).
    expect(valueAxisSteps(120, false)).toBe(2)
    expect(valueAxisSteps(120)).toBe(1)
  })
})

describe('chart option: the edges and Total', () => {
  it('keeps the first and last date labels inside the plot instead of centring them on the edge', () => {
    const axis = buildChartOption(input()).xAxis as { axisLabel: Record<string, unknown> }
    expect(axis.axisLabel).toMatchObject({ alignMinLabel: 'left', alignMaxLabel: 'right' })
  })

  /** Two countries and a Total far above them (hundreds of small lines sum up to such a Total). */
  const dwarfed = {
    ...result,
    series: [
      { ...result.series[0]!, values: [10, 12, 30] },
      { ...result.series[1]!, values: [20, 25, 28] },
      { ...result.series[2]!, values: [400, 420, 500] },
      { ...result.series[3]!, key: 'impressions|__total__|compare', line: '__total__', role: 'comparison' as const, values: [380, 390, 410] },
    ],
  }

  it('puts a Total that dwarfs the lines on its own axis on the right, its comparison with it', () => {
    const option = buildChartOption(input({ result: dwarfed }))
    const axes = option.yAxis as Array<{ position: string; name: string }>
    expect(axes.map((axis) => [axis.position, axis.name])).toEqual([
      ['left', 'impressions'],
      ['right', 'Total'],
    ])
    // Total's axis wears Total's colour, its line as thick as Total's: it reads as Total's scale.
    const totalColor = seriesColors(dwarfed, false).get('impressions|__total__')
    expect(option.yAxis).toMatchObject([{}, { axisLine: { show: true, lineStyle: { color: totalColor } }, axisLabel: { color: totalColor } }])
    expect(seriesOf(option).map((series) => [series.id, series.yAxisIndex])).toEqual([
      ['impressions|FR', 0],
      ['impressions|DE', 0],
      ['impressions|__total__', 1],
      ['impressions|__total__|compare', 1],
      [MARKERS_SERIES, undefined],
    ])
    // The plot leaves room on the right for the second axis' labels.
    expect((option.grid as { right: number }).right).toBeGreaterThan((buildChartOption(input()).grid as { right: number }).right)
  })

  it('keeps Total on the lines’ axis when it does not dwarf them, when they stack, or when the right axis is the percent one', () => {
    // The fixture's Total (100) is under twice its highest line (70).
    expect(totalOnOwnAxis(result, 'line', false)).toBe(false)
    expect((buildChartOption(input()).yAxis as unknown[]).length).toBe(1)
    expect(totalOnOwnAxis(dwarfed, 'line', false)).toBe(true)
    expect(totalOnOwnAxis(dwarfed, 'bar', false)).toBe(true)
    expect(totalOnOwnAxis(dwarfed, 'stacked', false)).toBe(false)
    expect(totalOnOwnAxis(dwarfed, 'line', true)).toBe(false)
    expect(totalOnOwnAxis({ ...dwarfed, series: dwarfed.series.slice(2, 3) }, 'line', false)).toBe(false)
  })

  it('gives a Total switched off no axis of its own: an empty "Total" axis was drawn on the right', () => {
    const hidden = new Set(['impressions|__total__', 'impressions|__total__|compare'])
    const option = buildChartOption(input({ result: dwarfed, hidden }))
    expect((option.yAxis as Array<{ name: string }>).map((axis) => axis.name)).toEqual(['impressions'])
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
