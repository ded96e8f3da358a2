import { describe, expect, it } from 'vitest'
import { chartFileSchema, svgProblem } from '@contract'
import { init } from '../../../../renderer/src/components/reports/echarts'
import { chartTable, fileOption, legendRows } from '../../../../renderer/src/composables/reports/useChartFiles'
import { buildChartOption } from '../../../../renderer/src/domain/reports/chartOption'
import { seriesColors } from '../../../../renderer/src/domain/reports/series'
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
