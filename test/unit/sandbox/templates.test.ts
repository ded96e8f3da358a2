import { describe, expect, it } from 'vitest'
import { evaluateScalar, evaluateVector, parseTemplate, TemplateError } from '../../../main/sandbox/reporting/templates'

const truth = (template: string, values: boolean[]): boolean => evaluateScalar(parseTemplate(template, values.length), (position) => values[position - 1] ?? false)

describe('filter templates', () => {
  it('gives not > and > or precedence and honours parentheses', () => {
    expect(truth('1 or 2 and 3', [true, false, false])).toBe(true)
    expect(truth('(1 or 2) and 3', [true, false, false])).toBe(false)
    expect(truth('not 1 and 2', [false, true])).toBe(true)
    expect(truth('not (1 and 2)', [true, true])).toBe(false)
    expect(truth('1 AND (2 Or 3)', [true, false, true])).toBe(true)
    expect(truth('  1  ', [true])).toBe(true)
  })

  it('evaluates over vectors like over scalars', () => {
    const leaves = [Uint8Array.from([1, 1, 0, 0]), Uint8Array.from([1, 0, 1, 0])]
    expect(Array.from(evaluateVector(parseTemplate('1 and not 2', 2), leaves, 4))).toEqual([0, 1, 0, 0])
    expect(Array.from(evaluateVector(parseTemplate('1 or 2', 2), leaves, 4))).toEqual([1, 1, 1, 0])
    // Leaves are not modified.
    expect(Array.from(leaves[0] ?? [])).toEqual([1, 1, 0, 0])
  })

  it('rejects broken templates with a reason', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['1 and (2 or 3', 3, /not closed/],
      ['1 and', 1, /ends too early/],
      ['', 1, /ends too early/],
      ['1 2', 2, /unexpected '2'/],
      ['1 & 2', 2, /unexpected character '&'/],
      ['3', 2, /position 3/],
      ['0', 1, /position 0/],
      ['1', 2, /filter 2 is not used/],
      ['1 xor 2', 2, /unexpected 'xor'/],
    ]
    for (const [template, count, reason] of cases) {
      expect(() => parseTemplate(template, count), template).toThrow(TemplateError)
      expect(() => parseTemplate(template, count), template).toThrow(reason)
    }
  })
})
