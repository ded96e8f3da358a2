import { describe, expect, it } from 'vitest'
import { PIVOT_WINDOW_BOUNDS, pivotWindowRequestSchema, SQL_ANSWER_BOUNDS, sqlRowsSchema } from '@contract'
import { PIVOT_WINDOW_LIMITS } from '../../../common/pivot/types'
import { ENGINE_LIMITS } from '../../../main/services/analysis/engine'
import { SQL_ANSWER_LIMITS } from '../../../main/services/analysis/sql-answer'

describe('the analysis channels bound what crosses the bridge', () => {
  it('by the same window limits the page and the engine use', () => {
    expect(PIVOT_WINDOW_BOUNDS).toEqual(PIVOT_WINDOW_LIMITS)
    const request = { rowStart: 0, rowCount: PIVOT_WINDOW_LIMITS.rows, columnStart: 0, columnCount: PIVOT_WINDOW_LIMITS.columns }
    expect(pivotWindowRequestSchema.safeParse(request).success).toBe(true)
    expect(pivotWindowRequestSchema.safeParse({ ...request, rowCount: PIVOT_WINDOW_LIMITS.rows + 1 }).success).toBe(false)
  })

  it("by the SQL box's own answer bounds: a cut cell crosses, a longer one does not", () => {
    expect(SQL_ANSWER_BOUNDS).toEqual({ rows: ENGINE_LIMITS.rowCap, columns: SQL_ANSWER_LIMITS.maxColumns, cellChars: SQL_ANSWER_LIMITS.maxCellChars })
    const answer = (cell: string) => ({ columns: ['a'], rows: [[cell]], truncated: false, notes: [] })
    expect(sqlRowsSchema.safeParse(answer(`${'😀'.repeat(SQL_ANSWER_LIMITS.maxCellChars)}…`)).success).toBe(true)
    expect(sqlRowsSchema.safeParse(answer('x'.repeat(1_000_000))).success).toBe(false)
  })
})
