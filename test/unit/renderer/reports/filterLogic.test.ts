import { describe, expect, it } from 'vitest'
import { checkFilterLogic } from '../../../../renderer/src/domain/reports/filterLogic'

describe('filter logic', () => {
  it('accepts empty text (every filter applies) and valid expressions in any case', () => {
    expect(checkFilterLogic('', 3)).toBeNull()
    expect(checkFilterLogic('   ', 0)).toBeNull()
    expect(checkFilterLogic('1 and (2 or 3)', 3)).toBeNull()
    expect(checkFilterLogic('1 AND NOT (2 Or 3)', 3)).toBeNull()
    expect(checkFilterLogic('not not 1', 1)).toBeNull()
    expect(checkFilterLogic('((1))and 2', 2)).toBeNull()
  })

  it('names a position that does not exist, with where it is', () => {
    expect(checkFilterLogic('1 and 4', 3)).toBe('Filter 4 at character 7 does not exist: there are 3 filters.')
    expect(checkFilterLogic('0', 1)).toBe('Filter 0 at character 1 does not exist: there is 1 filter.')
  })

  it('requires every filter to appear', () => {
    expect(checkFilterLogic('1 or 3', 3)).toBe('Filter 2 is not used: every filter must appear in the logic.')
  })

  it('explains syntax mistakes', () => {
    expect(checkFilterLogic('1 and (2 or 3', 3)).toBe('A “(” at character 7 is not closed.')
    expect(checkFilterLogic('1 and', 1)).toBe('The expression ends too early: a filter number or “(” is missing.')
    expect(checkFilterLogic('1 2', 2)).toBe('Unexpected “2” at character 3.')
    expect(checkFilterLogic('1 && 2', 2)).toMatch(/^Unexpected “&” at character 3/)
    expect(checkFilterLogic('1 xor 2', 2)).toMatch(/^Unexpected “xor” at character 3: only and, or and not/)
    expect(checkFilterLogic('or 1', 1)).toBe('Expected a filter number or “(” but found “or” at character 1.')
    expect(checkFilterLogic('1)', 1)).toBe('Unexpected “)” at character 2.')
  })

  it('says when there is nothing to combine', () => {
    expect(checkFilterLogic('1', 0)).toMatch(/no filters to combine/)
  })
})
