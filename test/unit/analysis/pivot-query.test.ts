import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PivotLayout } from '../../../common/pivot/types'
import { createLockedDatabase, type LockedDatabase } from '../../../main/services/analysis/engine'
import type { AnalysisColumn } from '../../../main/services/analysis/opened-files'
import { computePivot, pivotStatements, type AnalysisFilter } from '../../../main/services/analysis/pivot-query'

// A crafted file: a column name that would close the identifier and run a statement of its own.
const CRAFTED = 'rev"; DROP TABLE sales; --'

const COLUMNS: AnalysisColumn[] = [
  { name: 'publisher', type: 'VARCHAR' },
  { name: 'country', type: 'VARCHAR' },
  { name: CRAFTED, type: 'DOUBLE' },
  { name: 'clicks', type: 'VARCHAR' },
]

const ROWS = [
  ['A', 'US', 10, '1'],
  ['A', 'FR', 5, '2'],
  ['B', 'US', 30, '3'],
  ['C', 'FR', 1, 'x'],
  ['D', 'US', 2, null],
  ['D', 'FR', 0, '4'],
]

let database: LockedDatabase
let counter = 0

beforeAll(async () => {
  database = await createLockedDatabase(async (connection) => {
    await connection.run(`CREATE TABLE sales (publisher VARCHAR, country VARCHAR, "rev""; DROP TABLE sales; --" DOUBLE, clicks VARCHAR)`)
    const values = ROWS.map((row) => `(${row.map((cell) => (cell === null ? 'NULL' : typeof cell === 'number' ? String(cell) : `'${cell}'`)).join(', ')})`)
    await connection.run(`INSERT INTO sales VALUES ${values.join(', ')}`)
  })
})
afterAll(() => database.close())

const layout = (over: Partial<PivotLayout> = {}): PivotLayout => ({
  rows: ['publisher'],
  columns: ['country'],
  values: [{ field: CRAFTED, aggregate: 'sum' }],
  sort: { by: 'label', direction: 'asc' },
  top: null,
  subtotals: false,
  showChange: false,
  ...over,
})

async function pivot(over: Partial<PivotLayout> = {}, filters: AnalysisFilter[] = []) {
  counter++
  const computed = await computePivot(database, 'sales', COLUMNS, layout(over), filters, `pivot_${counter}`)
  return { computed, window: await computed.window({ rowStart: 0, rowCount: 100, columnStart: 0, columnCount: 100 }) }
}

const labels = (window: Awaited<ReturnType<typeof pivot>>['window']): string[] => window.rows.map((row) => row.path.join('/'))

describe('pivot of an opened file in the engine', () => {
  it('quotes a crafted column name: the statement reads the column, the table survives', async () => {
    const { statements } = pivotStatements('sales', COLUMNS, layout(), [], 'pivot_sql')
    expect(statements[0]).toContain('"rev""; DROP TABLE sales; --"')
    const { window } = await pivot()
    expect(labels(window)).toEqual(['A', 'B', 'C', 'D', 'Total'])
    expect(window.columns.map((column) => column.header.path.join('/'))).toEqual(['FR', 'US', 'Total'])
    expect(window.cells[0]).toEqual([5, 10, 15])
    expect((await database.read('SELECT count(*) FROM sales')).rows[0]?.[0]).toBe(6)
  })

  it('tells an empty cell (no data) from a zero', async () => {
    const { window } = await pivot()
    // B sold nothing in FR: empty. D sold 0 in FR: zero.
    expect(window.cells[1]).toEqual([null, 30, 30])
    expect(window.cells[3]).toEqual([0, 2, 2])
  })

  it('sorts rows by a value, descending, at the row total or at one column', async () => {
    expect(labels((await pivot({ sort: { by: 'value', value: 0, column: null, direction: 'desc' } })).window)).toEqual(['B', 'A', 'D', 'C', 'Total'])
    expect(labels((await pivot({ sort: { by: 'value', value: 0, column: ['FR'], direction: 'desc' } })).window)).toEqual(['A', 'C', 'D', 'B', 'Total'])
  })

  it('keeps the top N by value and folds the rest into one Others row', async () => {
    const { window } = await pivot({ top: 2, sort: { by: 'value', value: 0, column: null, direction: 'desc' } })
    expect(window.rows.map((row) => row.kind)).toEqual(['item', 'item', 'others', 'total'])
    expect(labels(window)).toEqual(['B', 'A', 'Others', 'Total'])
    // Others: C (FR 1) and D (FR 0, US 2).
    expect(window.cells[2]).toEqual([1, 2, 3])
    expect(window.cells[3]).toEqual([6, 42, 48])
  })

  it('adds subtotals after their children and grand totals on both axes', async () => {
    const { window, computed } = await pivot({ rows: ['country', 'publisher'], columns: [], subtotals: true })
    expect(labels(window)).toEqual(['FR/A', 'FR/C', 'FR/D', 'FR/Total', 'US/A', 'US/B', 'US/D', 'US/Total', 'Total'])
    expect(window.rows[3]?.kind).toBe('subtotal')
    expect(window.cells.map((line) => line[0])).toEqual([5, 1, 0, 6, 10, 30, 2, 42, 48])
    expect(computed.columnCount).toBe(1)
  })

  it('sums a text column by the values that are numbers, counts non-empty cells, filters by parameters', async () => {
    const { window } = await pivot(
      {
        columns: [],
        values: [
          { field: 'clicks', aggregate: 'sum' },
          { field: 'clicks', aggregate: 'count' },
        ],
      },
      [{ column: 'country', operator: 'eq', value: "US' OR '1'='1" }],
    )
    expect(labels(window)).toEqual(['Total'])
    expect(window.cells[0]).toEqual([null, 0])
    const fr = await pivot(
      {
        columns: [],
        values: [
          { field: 'clicks', aggregate: 'sum' },
          { field: 'clicks', aggregate: 'count' },
        ],
      },
      [{ column: 'country', operator: 'eq', value: 'FR' }],
    )
    expect(fr.window.cells).toEqual([
      [2, 1],
      [null, 1],
      [4, 1],
      [6, 3],
    ])
  })

  it('answers a window bounded by the request, with the whole size for the scrollbars', async () => {
    const { computed } = await pivot()
    const part = await computed.window({ rowStart: 1, rowCount: 2, columnStart: 1, columnCount: 1 })
    expect(part).toMatchObject({ rowCount: 5, columnCount: 3, rowStart: 1, columnStart: 1 })
    expect(labels(part as never)).toEqual(['B', 'C'])
    expect(part.columns.map((column) => column.header.path)).toEqual([['US']])
    expect(part.cells).toEqual([[30], [null]])
  })

  it('refuses a layout naming a column the file does not have, with a sentence', async () => {
    await expect(pivot({ rows: ['nope'] })).rejects.toThrow('The file has no column "nope"')
  })
})
