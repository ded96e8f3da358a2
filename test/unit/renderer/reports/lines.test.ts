import { describe, expect, it } from 'vitest'
import { joinLine, lineCount, lineLabel, linesProblem, splitLine } from '../../../../renderer/src/domain/reports/lines'

describe('chart lines', () => {
  it('joins several keys’ values with U+0002 and shows them as “A / B”', () => {
    const line = joinLine(['FR', 'mobile'])
    expect(line).toBe('FR\u0002mobile')
    expect(splitLine(line)).toEqual(['FR', 'mobile'])
    expect(lineLabel(line)).toBe('FR / mobile')
    expect(lineLabel(line, (index, value) => (index === 0 && value === 'FR' ? 'France' : null))).toBe('France / mobile')
    expect(lineLabel('__total__')).toBe('Total')
  })

  it('counts the lines one call sends: picked or top values plus Total, or Total alone without a breakdown', () => {
    expect(lineCount([], { mode: 'top', count: 10, by: null, includeTotal: true })).toBe(1)
    expect(lineCount(['country'], { mode: 'top', count: 10, by: null, includeTotal: true })).toBe(11)
    expect(lineCount(['country'], { mode: 'top', count: 10, by: null, includeTotal: false })).toBe(10)
    expect(lineCount(['country'], { mode: 'pick', values: ['FR', 'DE'], includeTotal: true })).toBe(3)
  })

  it('explains more than 50 lines, and no lines at all, before anything is sent', () => {
    expect(linesProblem(['country'], { mode: 'top', count: 49, by: null, includeTotal: true })).toBeNull()
    expect(linesProblem(['country'], { mode: 'top', count: 50, by: null, includeTotal: true })).toBe(
      'This chart would draw 51 lines (the top 50 plus Total), but the platform draws at most 50 per chart. Choose fewer lines or turn off Total.',
    )
    const fifty = Array.from({ length: 50 }, (_, index) => `v${index}`)
    expect(linesProblem(['country'], { mode: 'pick', values: fifty, includeTotal: false })).toBeNull()
    expect(linesProblem(['country'], { mode: 'pick', values: fifty, includeTotal: true })).toMatch(
      /^This chart would draw 51 lines \(50 picked values plus Total\)/,
    )
    expect(linesProblem(['country'], { mode: 'pick', values: [], includeTotal: false })).toMatch(/No lines are chosen/)
    expect(linesProblem([], { mode: 'pick', values: [], includeTotal: false })).toBeNull()
  })
})
