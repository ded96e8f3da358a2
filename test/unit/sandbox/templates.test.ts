import { describe, expect, it } from 'vitest'
import {
  evaluateScalar,
  evaluateVector,
  MAX_TEMPLATE_CHARACTERS,
  MAX_TEMPLATE_DEPTH,
  MAX_TEMPLATE_LEAVES,
  parseTemplate,
  TemplateError,
} from '../../../main/sandbox/reporting/templates'

const truth = (template: string, values: boolean[]): boolean =>
  evaluateScalar(parseTemplate(template, values.length), (position) => values[position - 1] ?? false)

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

  it('caps the size in characters', () => {
    const longest = `1${' '.repeat(MAX_TEMPLATE_CHARACTERS - 1)}`
    expect(truth(longest, [true])).toBe(true)
    expect(() => parseTemplate(`${longest} `, 1)).toThrow(
      `the expression is ${MAX_TEMPLATE_CHARACTERS + 1} characters long; at most ${MAX_TEMPLATE_CHARACTERS} are allowed`,
    )
    // 56 KB, the size that once stalled the server.
    const huge = `${'1 and '.repeat(9_400)}1`
    expect(huge.length).toBeGreaterThan(56_000)
    expect(() => parseTemplate(huge, 1)).toThrow(/characters long/)
  })

  it('caps the nesting depth of parentheses and not', () => {
    const parenthesised = (levels: number): string => `${'('.repeat(levels)}1${')'.repeat(levels)}`
    expect(truth(parenthesised(MAX_TEMPLATE_DEPTH), [true])).toBe(true)
    expect(() => parseTemplate(parenthesised(MAX_TEMPLATE_DEPTH + 1), 1)).toThrow(`nests deeper than ${MAX_TEMPLATE_DEPTH} levels`)
    expect(truth(`${'not '.repeat(MAX_TEMPLATE_DEPTH)}1`, [true])).toBe(true)
    expect(() => parseTemplate(`${'not '.repeat(MAX_TEMPLATE_DEPTH + 1)}1`, 1)).toThrow(TemplateError)
    // Mixed: depth counts along one path, not in total.
    const wide = Array.from({ length: 20 }, () => `(${'('.repeat(MAX_TEMPLATE_DEPTH - 1)}1${')'.repeat(MAX_TEMPLATE_DEPTH - 1)})`).join(' or ')
    expect(truth(wide, [true])).toBe(true)
    expect(() => parseTemplate(`not (${parenthesised(MAX_TEMPLATE_DEPTH - 1)})`, 1)).toThrow(/nests deeper/)
    // Under the character cap, a depth that would otherwise exhaust the stack is refused, not thrown as RangeError.
    const deepest = Math.floor((MAX_TEMPLATE_CHARACTERS - 1) / 2)
    expect(() => parseTemplate(parenthesised(deepest), 1)).toThrow(TemplateError)
  })

  it('caps the number of leaves', () => {
    const chain = (count: number): string => Array.from({ length: count }, (_, index) => String((index % 3) + 1)).join(' or ')
    expect(truth(chain(MAX_TEMPLATE_LEAVES), [false, false, true])).toBe(true)
    expect(() => parseTemplate(chain(MAX_TEMPLATE_LEAVES + 1), 3)).toThrow(`names more than ${MAX_TEMPLATE_LEAVES} filter positions`)
  })
})
