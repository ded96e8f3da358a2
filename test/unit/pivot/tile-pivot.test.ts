import { describe, expect, it } from 'vitest'
import { boardTileSchema, boardTileViews, type ReportDefinition } from '@contract'
import { tilePivot } from '../../../common/pivot/tile-pivot'
import { breakdownChart } from '../../support/chart-results'
import { sampleDefinition } from '../../support/channel-samples'

const definition = (pivot?: ReportDefinition['chart']['pivot']): ReportDefinition => ({
  ...sampleDefinition,
  breakdown: ['publisher', 'country'],
  chart: { ...sampleDefinition.chart, ...(pivot ? { pivot } : {}) },
})

describe('a pivot tile', () => {
  it('is a view a board tile can have', () => {
    expect(boardTileViews).toContain('pivot')
    const tile = { id: 't', title: '', source: { kind: 'preset', preset: 'Weekly' }, view: 'pivot', place: { x: 0, y: 0, w: 6, h: 4 } }
    expect(boardTileSchema.safeParse(tile).success).toBe(true)
  })

  it('writes a fall with the minus sign (U+2212) and a rise with its plus, as the Reports pivot does', () => {
    const drawn = tilePivot(breakdownChart(), definition())
    const header = drawn.pivot.columns[0]?.header
    if (header === undefined) throw new Error('the pivot has a column')
    expect(drawn.formatCell(-38, { header, value: 0, measure: 'change' })).toBe('−38')
    expect(drawn.formatCell(12.5, { header, value: 0, measure: 'change' })).toBe('+12.5')
    expect(drawn.formatCell(-1234.5, { header, value: 0, measure: 'value' })).toBe('−1,234.5')
    expect(drawn.formatCell(-0.3, { header, value: 0, measure: 'percent' })).toBe('−0.3%')
  })

  it("draws the preset's own pivot layout", () => {
    const layout = {
      rows: ['country'],
      columns: [],
      values: [{ field: 'impressions', aggregate: 'sum' as const }],
      sort: { by: 'label' as const, direction: 'asc' as const },
      top: null,
      subtotals: false,
      showChange: false,
    }
    const drawn = tilePivot(breakdownChart(), definition(layout))
    expect(drawn.kept).toBe(true)
    expect(drawn.layout).toEqual(layout)
    expect(drawn.pivot.rows.map((row) => row.path.join('/'))).toEqual(['FR', 'US', 'Total'])
    expect(drawn.pivot.columnCount).toBe(1)
    expect(drawn.pivot.cell(drawn.pivot.rowCount - 1, 0)).toBe(131)
    expect(drawn.columnLabel(drawn.pivot.columns[0] as never)).toBe('impressions')
  })

  it('falls back to the default layout when the preset keeps none or one that no longer fits', () => {
    const none = tilePivot(breakdownChart(), definition())
    expect(none).toMatchObject({ kept: false, layout: { rows: ['publisher', 'country'], columns: ['@time'] } })
    const stale = tilePivot(
      breakdownChart(),
      definition({
        rows: ['gone'],
        columns: [],
        values: [{ field: 'impressions', aggregate: 'sum' }],
        sort: { by: 'label', direction: 'asc' },
        top: null,
        subtotals: false,
        showChange: false,
      }),
    )
    expect(stale.kept).toBe(false)
    expect(stale.layout.rows).toEqual(['publisher', 'country'])
  })
})
