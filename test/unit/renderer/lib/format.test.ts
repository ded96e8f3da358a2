import { describe, expect, it } from 'vitest'
import { counted } from '../../../../renderer/src/lib/format'

describe('counted', () => {
  it('puts the noun in the number the count asks for (the pivot caption said "1 columns")', () => {
    expect(`${counted(8, 'row')} × ${counted(1, 'column')}`).toBe('8 rows × 1 column')
    expect(counted(0, 'row')).toBe('0 rows')
    expect(counted(100_000, 'cell')).toBe('100,000 cells')
  })
})
