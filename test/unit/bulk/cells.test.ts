import { describe, expect, it } from 'vitest'
import type { EntityField } from '@contract'
import { readCell } from '../../../main/services/bulk/cells'

const field = (type: EntityField['type'], extra: Partial<EntityField> = {}): EntityField => ({ name: 'f', label: 'F', type, required: false, ...extra })

describe('one cell read as its field type', () => {
  it('refuses formula-looking cells in any field, but a negative number in a number field is a number', () => {
    for (const text of ['=1+1', '+1', '-x', '@SUM(A1)', '  =cmd']) expect(readCell(field('text'), text).outcome).toBe('error')
    expect(readCell(field('number'), '-2.5')).toEqual({ outcome: 'value', value: -2.5 })
    expect(readCell(field('integer'), '-3')).toEqual({ outcome: 'value', value: -3 })
    expect(readCell(field('integer'), '-3+1').outcome).toBe('error')
  })

  it('reads booleans, integers, urls, references and JSON, and says what is wrong', () => {
    expect(readCell(field('boolean'), 'No')).toEqual({ outcome: 'value', value: false })
    expect(readCell(field('integer'), '1.5')).toEqual({ outcome: 'error', reason: 'f: "1.5" is not a whole number.' })
    expect(readCell(field('url'), 'ftp://x.com')).toEqual({
      outcome: 'error',
      reason: 'f: "ftp://x.com" is not a web address; write it with http:// or https://.',
    })
    expect(readCell(field('url'), 'https://x.com/a')).toEqual({ outcome: 'value', value: 'https://x.com/a' })
    expect(readCell(field('references', { references: 'brands' }), '1; 2;3')).toEqual({ outcome: 'value', value: [1, 2, 3] })
    expect(readCell(field('references', { references: 'brands' }), '[1, "x"]')).toEqual({
      outcome: 'error',
      reason: 'f: "x" is not an id; write the ids of brands separated by ;.',
    })
    expect(readCell(field('domains'), '[oops')).toMatchObject({ outcome: 'error', reason: expect.stringContaining('not a JSON array') })
    expect(readCell(field('json'), '{"a": 1}')).toEqual({ outcome: 'value', value: { a: 1 } })
    expect(readCell(field('text'), '   ')).toEqual({ outcome: 'empty' })
  })
})
