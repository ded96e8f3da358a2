import { describe, expect, it } from 'vitest'
import { computePivot, layoutProblem, type PivotRecord, type PivotSource } from '../../../common/pivot/model'
import type { PivotLayout } from '../../../common/pivot/types'

/** publisher × country × day, one metric (imps) and its comparison. */
function record(publisher: string, country: string, day: string, imps: number | null, before: number | null = null): PivotRecord {
  return { keys: [publisher, country, day], values: [imps], compare: [before] }
}
const source: PivotSource = {
  fields: ['publisher', 'country', '@time'],
  values: ['imps'],
  comparison: true,
  records: [
    record('Alpha', 'US', 'd1', 10, 5),
    record('Alpha', 'US', 'd2', 20, 5),
    record('Alpha', 'FR', 'd1', 1, 1),
    record('Beta', 'US', 'd1', 100, 200),
    record('Beta', 'FR', 'd2', 0, 0),
    record('Gamma', 'US', 'd1', 50, 10),
    record('Delta', 'FR', 'd2', 7, 70),
  ],
}
const layout = (parts: Partial<PivotLayout>): PivotLayout => ({
  rows: ['publisher'],
  columns: [],
  values: [{ field: 'imps', aggregate: 'sum' }],
  sort: { by: 'label', direction: 'asc' },
  top: null,
  subtotals: false,
  showChange: false,
  ...parts,
})
const labels = (pivot: ReturnType<typeof computePivot>): string[] => pivot.rows.map((row) => row.path.join('/'))
const column = (pivot: ReturnType<typeof computePivot>, index: number): (number | null)[] => pivot.rows.map((_row, row) => pivot.cell(row, index))

describe('the pivot model', () => {
  it('adds up rows, and the grand total counts every record once', () => {
    const pivot = computePivot(source, layout({}))
    expect(labels(pivot)).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma', 'Total'])
    expect(column(pivot, 0)).toEqual([31, 100, 7, 50, 188])
    expect(pivot.rows.at(-1)?.kind).toBe('total')
  })

  it('puts a subtotal after each parent and totals on both axes', () => {
    const pivot = computePivot(source, layout({ rows: ['publisher', 'country'], columns: ['@time'], subtotals: true }))
    expect(labels(pivot)).toEqual([
      'Alpha/FR',
      'Alpha/US',
      'Alpha/Total',
      'Beta/FR',
      'Beta/US',
      'Beta/Total',
      'Delta/FR',
      'Delta/Total',
      'Gamma/US',
      'Gamma/Total',
      'Total',
    ])
    expect(pivot.columns.map((entry) => `${entry.header.path.join('/')}:${entry.header.kind}`)).toEqual(['d1:item', 'd2:item', 'Total:total'])
    const alphaTotal = 2
    expect([0, 1, 2].map((index) => pivot.cell(alphaTotal, index))).toEqual([11, 20, 31])
    expect([0, 1, 2].map((index) => pivot.cell(pivot.rowCount - 1, index))).toEqual([161, 27, 188])
    expect(pivot.rows[alphaTotal]?.kind).toBe('subtotal')
  })

  it('keeps an empty cell empty and a zero a zero', () => {
    const pivot = computePivot(source, layout({ columns: ['@time'] }))
    const beta = labels(pivot).indexOf('Beta')
    const gamma = labels(pivot).indexOf('Gamma')
    expect(pivot.cell(beta, 1)).toBe(0)
    expect(pivot.cell(gamma, 1)).toBeNull()
  })

  it('sorts by a value column, larger first, rows without a number last', () => {
    const pivot = computePivot(source, layout({ columns: ['@time'], sort: { by: 'value', value: 0, column: ['d2'], direction: 'desc' } }))
    expect(labels(pivot)).toEqual(['Alpha', 'Delta', 'Beta', 'Gamma', 'Total'])
    const ascending = computePivot(source, layout({ columns: ['@time'], sort: { by: 'value', value: 0, column: ['d2'], direction: 'asc' } }))
    expect(labels(ascending)).toEqual(['Beta', 'Delta', 'Alpha', 'Gamma', 'Total'])
  })

  it('sorts by the row total, and by the change against the comparison in absolute and percent terms', () => {
    expect(labels(computePivot(source, layout({ sort: { by: 'value', value: 0, column: null, direction: 'desc' } })))).toEqual([
      'Beta',
      'Gamma',
      'Alpha',
      'Delta',
      'Total',
    ])
    // Changes: Alpha 31-11=+20 (+181.8%), Beta 100-200=-100 (-50%), Gamma +40 (+400%), Delta -63 (-90%).
    const absolute = computePivot(source, layout({ sort: { by: 'change', value: 0, column: null, measure: 'absolute', direction: 'desc' } }))
    expect(labels(absolute)).toEqual(['Gamma', 'Alpha', 'Delta', 'Beta', 'Total'])
    const percent = computePivot(source, layout({ sort: { by: 'change', value: 0, column: null, measure: 'percent', direction: 'asc' } }))
    expect(labels(percent)).toEqual(['Delta', 'Beta', 'Alpha', 'Gamma', 'Total'])
  })

  it('shows absolute and percent change columns beside each value', () => {
    const pivot = computePivot(source, layout({ showChange: true }))
    expect(pivot.columns.map((entry) => entry.measure)).toEqual(['value', 'change', 'percent'])
    const beta = labels(pivot).indexOf('Beta')
    expect([0, 1, 2].map((index) => pivot.cell(beta, index))).toEqual([100, -100, -50])
  })

  it('keeps the top N rows by the sort and adds the rest up as Others, so the total is unchanged', () => {
    const pivot = computePivot(source, layout({ top: 2, sort: { by: 'value', value: 0, column: null, direction: 'desc' } }))
    expect(labels(pivot)).toEqual(['Beta', 'Gamma', 'Others', 'Total'])
    expect(pivot.rows[2]?.kind).toBe('others')
    expect(column(pivot, 0)).toEqual([100, 50, 38, 188])
  })

  it('top N sorted by label keeps the largest rows and shows them by label', () => {
    const pivot = computePivot(source, layout({ top: 2 }))
    expect(labels(pivot)).toEqual(['Beta', 'Gamma', 'Others', 'Total'])
  })

  it('averages, minima, maxima and counts of records, Others included', () => {
    const values = (['avg', 'min', 'max', 'count'] as const).map((aggregate) => ({ field: 'imps', aggregate }))
    const pivot = computePivot(source, layout({ values, top: 1, sort: { by: 'value', value: 3, column: null, direction: 'desc' } }))
    expect(labels(pivot)).toEqual(['Alpha', 'Others', 'Total'])
    // Alpha: 10, 20, 1. Others: Beta 100, 0; Gamma 50; Delta 7.
    expect([0, 1, 2, 3].map((index) => pivot.cell(0, index))).toEqual([31 / 3, 1, 20, 3])
    expect([0, 1, 2, 3].map((index) => pivot.cell(1, index))).toEqual([157 / 4, 0, 100, 4])
  })

  it('answers windows within the pivot and within the bridge limits', () => {
    const many: PivotSource = {
      fields: ['row', 'column'],
      values: ['imps'],
      comparison: false,
      records: Array.from({ length: 600 * 250 }, (_unused, index) => ({
        keys: [`r${index % 600}`, `c${Math.floor(index / 600)}`],
        values: [1],
        compare: null,
      })),
    }
    const pivot = computePivot(many, layout({ rows: ['row'], columns: ['column'] }))
    expect([pivot.rowCount, pivot.columnCount]).toEqual([601, 251])
    const window = pivot.window({ rowStart: 590, rowCount: 5000, columnStart: -4, columnCount: 5000 })
    expect([window.rowStart, window.columnStart, window.rows.length, window.columns.length]).toEqual([590, 0, 11, 200])
    expect(window.cells.length).toBe(11)
    expect(window.cells[10]?.[0]).toBe(600)
    const past = pivot.window({ rowStart: 5000, rowCount: 10, columnStart: 5000, columnCount: 10 })
    expect([past.rowStart, past.rows.length, past.columnStart, past.columns.length]).toEqual([600, 1, 250, 1])
  })

  it('says in a sentence what is wrong with a layout instead of computing it', () => {
    expect(layoutProblem(source, layout({ rows: ['bidder'] }))).toMatch(/"bidder", which this result does not have/)
    expect(layoutProblem(source, layout({ rows: ['publisher'], columns: ['publisher'] }))).toMatch(/both a row and a column/)
    expect(
      layoutProblem({ ...source, comparison: false }, layout({ sort: { by: 'change', value: 0, column: null, measure: 'percent', direction: 'asc' } })),
    ).toMatch(/comparison period/)
  })

  it('gives the colour scale the range of item cells, not of totals', () => {
    const pivot = computePivot(source, layout({ columns: ['@time'] }))
    expect(pivot.range(0)).toEqual({ min: 0, max: 100 })
  })
})
