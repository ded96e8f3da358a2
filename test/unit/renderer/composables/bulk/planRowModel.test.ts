import { describe, expect, it } from 'vitest'
import type { PlanRowView } from '@contract'
import { kindSpec } from '../../fixtures/entitySpecs'
import { planRowModel } from '../../../../../renderer/src/composables/bulk/planRowModel'
import { fieldWords } from '../../../../../renderer/src/domain/entities/fieldWords'

const brands = fieldWords(kindSpec('brands'))
const view = (overrides: Partial<PlanRowView> = {}): PlanRowView => ({
  row: 3,
  action: 'update',
  id: 4,
  name: 'Humongous Electronics',
  changes: { is_open_auction_allowed: [false, true], advertiser_domains: [['a.example'], ['a.example', 'b.example']] },
  errors: [],
  outcome: null,
  ...overrides,
})

describe('a plan row in the words of the entity forms', () => {
  it('names each changed field by its label and shows booleans as Yes/No', () => {
    const model = planRowModel(view(), brands)
    expect(model.diffs).toEqual([
      { field: 'Open auction allowed', before: 'No', after: 'Yes' },
      { field: 'Advertiser domains', before: 'a.example', after: 'a.example; b.example' },
    ])
  })

  it('names the entity beside its id, and a create by the name it will get', () => {
    expect(planRowModel(view(), brands).entityText).toBe('Humongous Electronics (4)')
    expect(planRowModel(view({ id: null, action: 'create', name: 'New brand' }), brands).entityText).toBe('New brand (new)')
    expect(planRowModel(view({ id: 9, name: null }), brands).entityText).toBe('9')
  })

  it('keeps the API name of a field the kind does not list, and its value in words still', () => {
    const model = planRowModel(view({ changes: { is_experimental: [true, null] } }), brands)
    expect(model.diffs).toEqual([{ field: 'is_experimental', before: 'Yes', after: '—' }])
  })
})
