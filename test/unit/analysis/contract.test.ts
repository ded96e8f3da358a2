import { describe, expect, it } from 'vitest'
import { PIVOT_WINDOW_BOUNDS, pivotWindowRequestSchema } from '@contract'
import { PIVOT_WINDOW_LIMITS } from '../../../common/pivot/types'

describe('the analysis channels bound what crosses the bridge', () => {
  it('by the same window limits the page and the engine use', () => {
    expect(PIVOT_WINDOW_BOUNDS).toEqual(PIVOT_WINDOW_LIMITS)
    const request = { rowStart: 0, rowCount: PIVOT_WINDOW_LIMITS.rows, columnStart: 0, columnCount: PIVOT_WINDOW_LIMITS.columns }
    expect(pivotWindowRequestSchema.safeParse(request).success).toBe(true)
    expect(pivotWindowRequestSchema.safeParse({ ...request, rowCount: PIVOT_WINDOW_LIMITS.rows + 1 }).success).toBe(false)
  })
})
