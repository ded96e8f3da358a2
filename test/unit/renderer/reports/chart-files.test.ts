import { describe, expect, it } from 'vitest'
import { chartFileSchema, svgProblem } from '@contract'
import { init } from '../../../../renderer/src/components/reports/echarts'
import { chartTable, fileOption, hiddenSeriesKeys, legendRows, type LiveOption } from '../../../../renderer/src/domain/reports/chartFile'
import { buildChartOption } from '../../../../common/charts/chart-option'
import { seriesColors } from '../../../../common/charts/series'
import { info, result } from './fixtures'

describe('the chart’s numbers as a table (Save chart → Data as CSV)', () => {
  it('has a row per category with its comparison date, a column per series, and the series table’s totals last', () => {
    const table = chartTable(result)
    expect(table.columns).toEqual(['Time', 'Compared with', 'France', 'Germany <b>', 'Total', 'France (previous period)'])
    expect(table.rows).toEqual([
      ['2026-02-01', '2026-01-29', 10, 50, 60, 5],
      ['2026-02-02', '2026-01-30', null, 60, 60, 20],
      ['2026-02-03', '2026-01-31', 30, 70, 100, 60],
      ['Total', '', 40, 180, 220, 85],
    ])
    expect(chartFileSchema.safeParse({ format: 'csv', name: 'demo supply', table }).success).toBe(true)
  })

  it('names the metric in each column when the chart has several, and leaves a total that cannot be added up empty', () => {
    const ctr = { ...result.series[0]!, key: 'ctr|FR', metric: 'ctr', stats: { ...result.series[0]!.stats, total: null } }
    const table = chartTable({ ...result, comparisonCategories: [], series: [result.series[0]!, ctr], granularity: 'country' })
    expect(table.columns).toEqual(['country', 'France · impressions', 'France · ctr'])
    expect(table.rows.at(-1)).toEqual(['Total', 40, null])
  })

  it('leaves out the series switched off, total included, so it agrees with the image’s legend', () => {
    const table = chartTable(result, new Set(['impressions|DE', 'impressions|__total__']))
    expect(table.columns).toEqual(['Time', 'Compared with', 'France', 'France (previous period)'])
    expect(table.rows.at(0)).toEqual(['2026-02-01', '2026-01-29', 10, 5])
    expect(table.rows.at(-1)).toEqual(['Total', '', 40, 85])
  })
})

describe('the chart as an image file', () => {
  const live = buildChartOption({
    result,
    fields: info.dataFields,
    colors: seriesColors(result, false),
    type: 'line',
    hidden: new Set(),
    showMarkers: true,
    dark: false,
    tooltip: () => '',
  }) as Record<string, unknown>

  it('wraps the legend onto as many rows as its names need', () => {
    expect(legendRows([], 600)).toBe(0)
    expect(legendRows(['France', 'Germany'], 600)).toBe(1)
    expect(
      legendRows(
        Array.from({ length: 12 }, (_, index) => `Country number ${index}`),
        600,
      ),
    ).toBeGreaterThan(3)
  })

  it('adds a legend and the background, grows by the legend’s rows, and leaves the zoom slider out', () => {
    const { option, width, height } = fileOption(
      { ...live, grid: [live.grid], dataZoom: live.dataZoom },
      { width: 400, height: 300, background: '#ffffff', textColor: '#333333' },
    )
    expect(width).toBe(400)
    expect(height).toBe(300 + legendRows(['France', 'Germany <b>', 'Total', 'France (previous period)'], 400) * 22)
    expect(option).toMatchObject({
      animation: false,
      backgroundColor: '#ffffff',
      legend: [{ show: true, data: ['France', 'Germany <b>', 'Total', 'France (previous period)'] }],
    })
    expect(option.dataZoom).toEqual([expect.objectContaining({ type: 'inside' }), expect.objectContaining({ type: 'slider', show: false })])
  })

  /** The live option after the user switched Germany off: ReportChart dispatches legendUnSelect, ECharts keeps it in the legend's selection. */
  const withGermanyOff = (): LiveOption => {
    const legend = live.legend as { selected: Record<string, boolean> }
    return { ...live, grid: [live.grid], dataZoom: live.dataZoom, legend: [{ ...legend, selected: { ...legend.selected, 'Germany <b>': false } }] }
  }

  it('reads the series switched off from the live legend’s selection, by key', () => {
    expect(hiddenSeriesKeys(result, withGermanyOff())).toEqual(new Set(['impressions|DE']))
    expect(hiddenSeriesKeys(result, { ...live, legend: [live.legend] })).toEqual(new Set())
    expect(hiddenSeriesKeys(result, undefined)).toEqual(new Set())
  })

  it('keeps the series switched off out of the legend and carries the selection, so they are not drawn', () => {
    const { option, height } = fileOption(withGermanyOff(), { width: 400, height: 300, background: '#ffffff', textColor: '#333333' })
    expect(option.legend).toEqual([
      expect.objectContaining({
        data: ['France', 'Total', 'France (previous period)'],
        selected: expect.objectContaining({ 'Germany <b>': false, France: true }),
      }),
    ])
    expect(height).toBe(300 + legendRows(['France', 'Total', 'France (previous period)'], 400) * 22)
  })

  it('draws no line and names nothing for a series switched off (ECharts’ server-side renderer)', () => {
    const { option, width, height } = fileOption(withGermanyOff(), { width: 600, height: 380, background: '#ffffff', textColor: '#333333' })
    const chart = init(null, undefined, { renderer: 'svg', ssr: true, width, height })
    try {
      chart.setOption(option)
      const svg = chart.renderToSVGString()
      expect(svg).not.toContain('Germany')
      expect(svg).toContain('France (previous period)')
      // Its color is nowhere in the drawing: no stroke of the line, no legend icon.
      const germany = (option.series as Array<{ name?: string; lineStyle?: { color?: string }; itemStyle?: { color?: string } }>).find(
        (entry) => entry.name === 'Germany <b>',
      )
      const color = germany?.lineStyle?.color ?? germany?.itemStyle?.color
      expect(color).toBeTypeOf('string')
      expect(svg.toLowerCase()).not.toContain(String(color).toLowerCase())
    } finally {
      chart.dispose()
    }
  })

  it('renders to an SVG document main accepts, with the series names in it (ECharts’ server-side renderer)', () => {
    const { option, width, height } = fileOption({ ...live, grid: [live.grid] }, { width: 600, height: 380, background: '#ffffff', textColor: '#333333' })
    const chart = init(null, undefined, { renderer: 'svg', ssr: true, width, height })
    try {
      chart.setOption(option)
      const svg = chart.renderToSVGString()
      expect(svgProblem(svg)).toBeNull()
      expect(chartFileSchema.safeParse({ format: 'svg', name: 'demo supply', content: svg }).success).toBe(true)
      // The label is text in the file, escaped like any text: it cannot become markup.
      expect(svg).toContain('Germany &lt;b&gt;')
      expect(svg).toContain('France (previous period)')
    } finally {
      chart.dispose()
    }
  })
})
