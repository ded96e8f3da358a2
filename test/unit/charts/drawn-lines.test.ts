import { describe, expect, it } from 'vitest'
import type { ChartLine, ChartResult } from '../../../common/charts/chart-shapes'
import { DRAWN_LINES_BY_DEFAULT, hiddenLines, hiddenSeries, smallLinesLeftOut, type LineChoice } from '../../../common/charts/drawn-lines'
import { TOTAL_LINE } from '../../../common/lines'

/**
 * Which series the chart draws (issue 39, item 14): a comparison doubles only the Total unless
 * "Compare every line" is on, and a chart of many lines opens with its largest ten drawn.
 */

const line = (name: string, total: number, role: ChartLine['role'] = 'line', metric = 'impressions'): ChartLine => ({
  key: `${metric}|${name}${role === 'comparison' ? '|compare' : ''}`,
  metric,
  line: name,
  label: name,
  role,
  values: [total / 2, total / 2],
  stats: { total, change: null },
})

/** `count` publishers (the platform's order is not by size here), their Total, and each one's comparison when `compared`. */
function resultOf(count: number, compared: boolean): ChartResult {
  const names = Array.from({ length: count }, (_, index) => `p${index + 1}`)
  // Sizes out of order, so "the largest" is not "the first": p1 is small, p41 the largest.
  const lines = names.map((name, index) => line(name, (index + 1) * 100))
  const total = line(
    TOTAL_LINE,
    lines.reduce((sum, series) => sum + (series.stats.total ?? 0), 0),
    'total',
  )
  const comparisons = compared ? [...lines, total].map((series) => line(series.line, 50, 'comparison')) : []
  return {
    categories: ['2026-12-01', '2026-12-02'],
    granularity: 'granularity_day',
    reduced: false,
    comparisonRange: compared ? { start: '2026-11-29', end: '2026-11-30' } : null,
    series: [...lines, total, ...comparisons],
    markers: [],
  }
}
const drawn = (result: ChartResult, choice: LineChoice): ChartLine[] => {
  const hidden = hiddenSeries(result, choice)
  return result.series.filter((series) => !hidden.has(series.key))
}
const untouched: LineChoice = { hidden: [] }

describe('the series a chart draws', () => {
  it('with a comparison, draws the Total’s comparison alone by default: 10 lines and a Total make 12 series, not 22', () => {
    const result = resultOf(10, true)
    const series = drawn(result, untouched)
    expect(series).toHaveLength(12)
    expect(series.filter((entry) => entry.role === 'comparison').map((entry) => entry.line)).toEqual([TOTAL_LINE])
  })

  it('with "Compare every line", draws each line’s comparison too', () => {
    const result = resultOf(10, true)
    expect(drawn(result, { hidden: [], compareEveryLine: true })).toHaveLength(22)
    // A line switched off takes its comparison with it.
    const withoutOne = drawn(result, { hidden: ['impressions|p3'], compareEveryLine: true })
    expect(withoutOne).toHaveLength(20)
    expect(withoutOne.some((entry) => entry.line === 'p3')).toBe(false)
  })

  it('of 41 lines, draws the 10 largest and the Total, and lists the other 31 as hidden lines', () => {
    const result = resultOf(41, false)
    expect(DRAWN_LINES_BY_DEFAULT).toBe(10)
    const series = drawn(result, untouched)
    expect(series.map((entry) => entry.line).sort()).toEqual(['p32', 'p33', 'p34', 'p35', 'p36', 'p37', 'p38', 'p39', 'p40', 'p41', TOTAL_LINE].sort())
    // The legend's switched-off entries: the 31 others, never the Total.
    const off = hiddenLines(result, untouched)
    expect(off.size).toBe(31)
    expect(off.has(`impressions|${TOTAL_LINE}`)).toBe(false)
    expect(off.has('impressions|p1')).toBe(true)
    // The legend says why: none left out of 10 lines, nor once the user chose.
    expect(smallLinesLeftOut(result, untouched)).toBe(true)
    expect(smallLinesLeftOut(resultOf(10, false), untouched)).toBe(false)
    expect(smallLinesLeftOut(result, { hidden: ['impressions|p1'] })).toBe(false)
  })

  it('keeps the user’s own choice of lines, and every line once they asked for all', () => {
    const result = resultOf(41, true)
    // Lines switched on and off by hand: exactly those.
    const chosen = result.series.filter((series) => series.role === 'line' && series.line !== 'p1').map((series) => series.key)
    expect(drawn(result, { hidden: chosen }).map((entry) => entry.key)).toEqual([
      'impressions|p1',
      `impressions|${TOTAL_LINE}`,
      `impressions|${TOTAL_LINE}|compare`,
    ])
    // "Show all": 41 lines, the Total and its comparison.
    expect(drawn(result, { hidden: [], allLines: true })).toHaveLength(43)
    // Keys of another breakdown's lines say nothing about these: the largest ten again.
    expect(drawn(result, { hidden: ['impressions|FR'] })).toHaveLength(12)
  })

  it('ranks the lines by the first metric and keeps each kept line on every metric', () => {
    const first = resultOf(12, false)
    const second = first.series.map((series) => ({
      ...series,
      key: series.key.replace('impressions', 'clicks'),
      metric: 'clicks',
      stats: { total: 1_000 - (series.stats.total ?? 0), change: null },
    }))
    const result = { ...first, series: [...first.series, ...second] }
    const lines = drawn(result, untouched).filter((entry) => entry.role === 'line')
    expect(lines).toHaveLength(20)
    expect(new Set(lines.map((entry) => entry.line))).toEqual(new Set(['p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'p11', 'p12']))
  })
})
