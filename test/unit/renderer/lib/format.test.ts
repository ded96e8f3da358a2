import { describe, expect, it } from 'vitest'
import { counted } from '../../../../renderer/src/lib/format'

describe('counted', () => {
  it('puts the noun in the number the count asks for (the pivot caption said "1 columns")', () => {
    expect(`${counted(8, 'row')} × ${counted(1, 'column')}`).toBe('8 rows × 1 column')
    expect(counted(0, 'row')).toBe('0 rows')
    expect(counted(100_000, 'cell')).toBe('100,000 cells')
  })
})

describe('the minus sign', () => {
  it('shows negative numbers with the minus sign U+2212 everywhere the screens format numbers, as the change column does', async () => {
    const { formatPlainNumber, formatCount: count } = await import('../../../../renderer/src/lib/format')
    const { formatValue, formatCompact, formatChange, formatCount } = await import('../../../../common/charts/value-format')
    expect(formatPlainNumber(-38)).toBe('−38')
    expect(count(-1234)).toBe('−1,234')
    expect(formatValue(-38, { displayType: 'int', precision: 0 })).toBe('−38')
    expect(formatValue(-0.25, { displayType: 'percent', precision: 1 })).toBe('−0.3%')
    expect(formatCompact(-1_200_000, false)).toBe('−1.2M')
    expect(formatCount(-5)).toBe('−5')
    expect(formatChange(-0.3)).toBe('−0.3%')
    expect(formatValue(38, { displayType: 'int', precision: 0 })).toBe('38')
  })
})
