import { describe, expect, it } from 'vitest'
import { numberColumnWidth } from '../../../../../renderer/src/domain/reports/columnWidth'

describe("the series table's number columns", () => {
  it('keep their least width for short numbers', () => {
    expect(numberColumnWidth(['547,280', '—', '0.52%'], 96)).toBe(96)
    // Seven digits keep it: a laptop-wide chart panel still shows every column, Change included.
    expect(numberColumnWidth(['7,812,345'], 96)).toBe(96)
    expect(numberColumnWidth([], 96)).toBe(96)
  })

  it('widen for an eight-digit total just enough that it stays on one line', () => {
    // "16,418,400" wrapped over two lines at a fixed 96 px; its text and the small table's
    // padding (8 px a side) need one pixel more.
    expect(numberColumnWidth(['16,418,400', '547,280'], 96)).toBe(Math.ceil(8 * 8.9 + 2 * 4.45 + 16))
    expect(numberColumnWidth(['1,234,567,890'], 96)).toBeGreaterThan(numberColumnWidth(['16,418,400'], 96))
  })
})
