import { describe, expect, it } from 'vitest'
import type { ChangeRecordView, Entity } from '@contract'
import { changedHereSentence } from '../../../../../renderer/src/domain/entities/changedHere'
import { relatedKinds, relatedOf } from '../../../../../renderer/src/domain/entities/related'
import { adUnitsSpec, agenciesSpec, brandsSpec, kindSpec, publishersSpec } from '../../fixtures/entitySpecs'

const lists: Record<string, Entity[]> = {
  publishers: [
    { id: 1, name: 'Humongous Kids', url: 'https://humongous-kids.example' },
    { id: 2, name: 'First Up Fashion', url: 'https://first-up.example' },
  ],
  ad_units: [
    { id: 10, name: 'kids_footer_336x280', publisher: 1 },
    { id: 11, name: 'fashion_top_728x90', publisher: 2 },
    { id: 12, name: '', publisher: '1' },
  ],
  brands: [
    { id: 5, name: 'Alpine Furniture' },
    { id: 6, name: 'Evergreen Energy' },
  ],
  agencies: [
    { id: 30, name: 'Northwind Media', brands: [5, 6] },
    { id: 31, name: 'Contoso Partners', brands: [6] },
  ],
}
const sources = {
  rowsOf: (kind: string) => lists[kind] ?? [],
  specOf: (kind: string) => kindSpec(kind) ?? publishersSpec,
}

describe('relatedOf: what the kinds link, from the local lists', () => {
  it("a publisher's ad units, each named (an unnamed one by its id), its id as text or number alike", () => {
    const groups = relatedOf(lists.publishers![0]!, publishersSpec, sources)
    expect(groups).toEqual([
      {
        label: 'Ad units',
        kind: 'ad_units',
        single: false,
        total: 2,
        items: [
          { kind: 'ad_units', id: '10', name: 'kids_footer_336x280' },
          { kind: 'ad_units', id: '12', name: '#12' },
        ],
      },
    ])
  })

  it("an ad unit's publisher and an agency's brands, by the field that points at them; an id the list lacks by #id", () => {
    expect(relatedOf(lists.ad_units![1]!, adUnitsSpec, sources)).toEqual([
      { label: 'Publisher', kind: 'publishers', single: true, total: 1, items: [{ kind: 'publishers', id: '2', name: 'First Up Fashion' }] },
    ])
    expect(relatedOf({ id: 32, name: 'New', brands: [6, 99] }, agenciesSpec, sources)[0]?.items).toEqual([
      { kind: 'brands', id: '6', name: 'Evergreen Energy' },
      { kind: 'brands', id: '99', name: '#99' },
    ])
  })

  it("a brand's agencies, and a group that is empty still says so (total 0)", () => {
    expect(relatedOf(lists.brands![1]!, brandsSpec, sources)[0]).toMatchObject({ label: 'Agencies', total: 2 })
    expect(relatedOf({ id: 7, name: 'Unused' }, brandsSpec, sources)[0]).toMatchObject({ label: 'Agencies', total: 0, items: [] })
  })

  it('shows the first few of many and counts them all', () => {
    const many = Array.from({ length: 30 }, (_, index) => ({ id: 100 + index, name: `unit ${index}`, publisher: 1 }))
    const [group] = relatedOf(lists.publishers![0]!, publishersSpec, { ...sources, rowsOf: (kind) => (kind === 'ad_units' ? many : []) }, 5)
    expect(group?.total).toBe(30)
    expect(group?.items.map((item) => item.id)).toEqual(['100', '101', '102', '103', '104'])
  })

  it('names the kinds whose lists it reads', () => {
    expect(relatedKinds(publishersSpec)).toEqual(['ad_units'])
    expect(relatedKinds(adUnitsSpec)).toEqual(['publishers'])
    expect(relatedKinds(agenciesSpec)).toEqual(['brands'])
  })
})

const record = (before: Record<string, unknown> | null, after: Record<string, unknown> | null): ChangeRecordView => ({
  change: 'c1',
  batch: 'b1',
  source: 'single',
  at: '2026-12-03T14:02:00.000Z',
  kind: 'brands',
  id: 5,
  before: before as ChangeRecordView['before'],
  after: after as ChangeRecordView['after'],
  outcome: 'applied',
  reason: null,
  reverted: false,
})
const when = (iso: string): string => `<${iso}>`

describe('changedHereSentence', () => {
  it('names the time and the changed fields by their labels', () => {
    const change = record(
      { id: 5, name: 'Alpine', advertiser_domains: ['a.example'], is_pmp_allowed: true },
      { id: 5, name: 'Alpine Furniture', advertiser_domains: ['b.example'], is_pmp_allowed: true },
    )
    expect(changedHereSentence(change, brandsSpec, when)).toBe('Changed here <2026-12-03T14:02:00.000Z> — Name, Advertiser domains')
  })

  it('says created for a create, and "Not changed here" when the log has nothing', () => {
    expect(changedHereSentence(record(null, { id: 5, name: 'Alpine' }), brandsSpec, when)).toBe('Created here <2026-12-03T14:02:00.000Z>')
    expect(changedHereSentence(null, brandsSpec, when)).toBe('Not changed here')
  })
})
