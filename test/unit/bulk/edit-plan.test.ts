import { describe, expect, it } from 'vitest'
import type { Entity } from '@contract'
import { planEdit, type EditOperation } from '../../../main/services/bulk/edit-plan'
import { kindSpec } from '../../../main/services/entities/kinds'

const brandSpec = kindSpec('brands')!
const brands: Entity[] = [
  { id: 1, name: 'Acme', is_open_auction_allowed: true, is_pmp_allowed: false, advertiser_domains: ['acme.com'], external_id: 'B-1' },
  { id: 2, name: 'Bolt', is_open_auction_allowed: false, is_pmp_allowed: false, advertiser_domains: [], external_id: 'B-2' },
  { id: 3, name: 'Cyan', is_open_auction_allowed: true, is_pmp_allowed: true },
]
const plan = (operation: EditOperation, ids: Array<number | string> = [1, 2, 3]) => planEdit({ spec: brandSpec, existing: brands, ids, operation })

describe('planEdit', () => {
  it('sets a boolean: per entity the change before → after and the whole merged entity; equal ones unchanged', () => {
    const result = plan({ op: 'set', field: 'is_open_auction_allowed', value: 'no' })
    expect(result.problems).toEqual([])
    expect(result.title).toBe('Set Open auction allowed to No on 3 brands')
    expect(result.rows[0]).toEqual({
      row: 1,
      action: 'update',
      id: 1,
      changes: { is_open_auction_allowed: [true, false] },
      entity: { ...brands[0], is_open_auction_allowed: false },
      before: brands[0],
      errors: [],
    })
    expect(result.rows[1]).toMatchObject({ action: 'unchanged', id: 2, changes: {}, entity: null, before: brands[1] })
    expect(result.counts).toMatchObject({ update: 2, unchanged: 1, error: 0 })
  })

  it('adds a domain to a list field, keeping what is there and never doubling it; a missing list starts empty', () => {
    const result = plan({ op: 'add', field: 'advertiser_domains', value: 'Acme.com; shop.example.com' })
    expect(result.rows.map((row) => row.changes.advertiser_domains)).toEqual([
      [['acme.com'], ['acme.com', 'shop.example.com']],
      [[], ['acme.com', 'shop.example.com']],
      [null, ['acme.com', 'shop.example.com']],
    ])
  })

  it('removes values from a list; an entity without them is unchanged', () => {
    const result = plan({ op: 'remove', field: 'advertiser_domains', value: 'acme.com' })
    expect(result.rows.map((row) => row.action)).toEqual(['update', 'unchanged', 'unchanged'])
    expect(result.rows[0]?.entity).toMatchObject({ advertiser_domains: [] })
  })

  it('clears an optional field with an empty value, refuses to clear a required one', () => {
    expect(plan({ op: 'set', field: 'external_id', value: '' }).rows[0]?.changes).toEqual({ external_id: ['B-1', null] })
    expect(plan({ op: 'set', field: 'name', value: ' ' }).problems).toEqual(['Name is required for every brand, so it cannot be cleared; write a value.'])
  })

  it('checks the value against the field type with the import cell sentences, once for the whole plan', () => {
    const wrong = plan({ op: 'set', field: 'is_pmp_allowed', value: 'maybe' })
    expect(wrong.rows).toEqual([])
    expect(wrong.problems).toEqual(['is_pmp_allowed: "maybe" is not true or false (also 1/0, yes/no).'])
    expect(plan({ op: 'add', field: 'advertiser_domains', value: 'not a domain' }).problems[0]).toMatch(/^advertiser_domains: "not a domain"/)
    expect(plan({ op: 'set', field: 'is_pmp_allowed', value: '=1+1' }).problems[0]).toMatch(/formula/)
  })

  it('refuses fields it cannot edit and list operations on single values', () => {
    expect(plan({ op: 'set', field: 'id', value: '4' }).problems).toEqual(['ID is set by the platform and cannot be changed.'])
    expect(plan({ op: 'set', field: 'colour', value: 'x' }).problems[0]).toMatch(/^Brands have no field "colour"; pick one of id, name/)
    expect(plan({ op: 'add', field: 'name', value: 'x' }).problems).toEqual(['Name holds one value, not a list; set it instead of adding or removing values.'])
    expect(plan({ op: 'set', field: 'name', value: 'x' }, []).problems[0]).toMatch(/No brands are picked/)
  })

  it('an id the mirror does not hold is an error row, the others are planned', () => {
    const result = plan({ op: 'set', field: 'name', value: 'Same' }, [1, 99])
    expect(result.rows[1]).toMatchObject({
      row: 2,
      action: 'error',
      id: 99,
      errors: [{ row: 2, column: null, reason: expect.stringMatching(/^No brand with id 99/) }],
    })
    expect(result.counts).toMatchObject({ update: 1, error: 1 })
  })
})
