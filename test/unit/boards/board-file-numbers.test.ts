import { describe, expect, it } from 'vitest'
import type { OpenTile, TimeSeriesView } from '@contract'
import { pagePdf } from '../../../main/services/boards/board-file-render'
import { boardPageSvg } from '../../../main/services/boards/board-page-svg'
import type { PrintedTile } from '../../../main/services/boards/board-tile-svg'
import { singleSeriesChart } from '../../support/chart-results'
import { sampleDefinition } from '../../support/channel-samples'
import { pdfText } from '../../support/pdf-text'

/**
 * Numbers on a board's page read as on screen: a metric of whole numbers (impressions) without
 * decimals ("70,570", once "70,570.00" in the series table), a metric with fractions (revenue)
 * keeps them. Read from the SVG the PNG is drawn from and from the PDF's text, as a reader finds it.
 */

const RAN_AT = '2026-12-07T11:00:00.000Z'

function withTotal(metric: string, values: number[], total: number): TimeSeriesView {
  const chart = singleSeriesChart({ values, ranAt: RAN_AT, timezone: 0, durationMs: 5 })
  const [line] = chart.series
  if (line === undefined) throw new Error('the sample has its total line')
  const series = { ...line, key: `${metric}|__total__`, metric, stats: { ...line.stats, total, average: total / values.length } }
  return { ...chart, series: [series] }
}

const tile = (id: string, view: OpenTile['view'], x: number): OpenTile => ({
  id,
  title: `Tile ${id}`,
  view,
  place: { x, y: 0, w: 3, h: 3 },
  preset: null,
  definition: sampleDefinition,
  problem: null,
})

const impressions = withTotal('impressions', [35_000, 35_570], 70_570)
const revenue = withTotal('revenue', [1.25, 2.5], 3.75)
const printed: PrintedTile[] = [
  { tile: tile('whole-table', 'table', 0), data: { kind: 'chart', result: impressions, ranAt: RAN_AT }, reason: null },
  { tile: tile('whole-number', 'number', 3), data: { kind: 'chart', result: impressions, ranAt: RAN_AT }, reason: null },
  { tile: tile('money-table', 'table', 6), data: { kind: 'chart', result: revenue, ranAt: RAN_AT }, reason: null },
  { tile: tile('money-number', 'number', 9), data: { kind: 'chart', result: revenue, ranAt: RAN_AT }, reason: null },
]
const page = boardPageSvg({ board: 'Numbers', dates: '2026-11-30 – 2026-12-06', connection: 'Demo workspace', madeAt: RAN_AT }, printed)

describe('a board file: its numbers', () => {
  it('prints a whole-number metric without decimals and keeps a fractional one’s, in the SVG the PNG is drawn from', () => {
    expect(page.svg).toContain('>70,570<')
    expect(page.svg).not.toContain('70,570.00')
    expect(page.svg).toContain('>3.75<')
  })

  it('prints the same in the PDF’s text', async () => {
    const { text } = await pdfText(await pagePdf(page, { title: 'Numbers', madeAt: new Date(RAN_AT) }, null))
    expect(text).toContain('70,570')
    expect(text).not.toContain('70,570.00')
    expect(text).toContain('3.75')
  })
})
