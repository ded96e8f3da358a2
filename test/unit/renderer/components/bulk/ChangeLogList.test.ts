// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import type { ChangeRecordView } from '@contract'
import { kindSpec } from '../../fixtures/entitySpecs'
import ChangeLogList from '../../../../../renderer/src/components/bulk/ChangeLogList.vue'

const record = (overrides: Partial<ChangeRecordView>): ChangeRecordView => ({
  change: 'c1',
  batch: 'b1',
  source: 'edit',
  at: '2026-12-07T09:57:00.000Z',
  kind: 'brands',
  id: 4,
  before: { id: 4, name: 'Humongous Electronics', is_open_auction_allowed: false },
  after: { id: 4, name: 'Humongous Electronics', is_open_auction_allowed: true },
  outcome: 'applied',
  reason: null,
  reverted: false,
  ...overrides,
})

function mountList(records: ChangeRecordView[], revertible: Record<string, number> = { b1: 1 }) {
  return mount(ChangeLogList, {
    props: { records, batchTitle: (batch: string) => `Batch ${batch}`, specOf: kindSpec, revertible: (batch: string) => (revertible[batch] ?? 0) > 0 },
  })
}

describe('ChangeLogList', () => {
  it('names the entity and its kind, and the change in the forms’ labels with Yes/No', () => {
    const row = mountList([record({})]).get('[data-test="change-row"]')
    expect(row.get('[data-test="change-entity"]').text()).toBe('Humongous Electronics (4)')
    expect(row.text()).toContain('Brands')
    expect(row.get('[data-test="change-diff"]').text()).toBe('Open auction allowed: No → Yes')
  })

  it('names a deleted entity by its name before the delete, a created one by its name after', () => {
    const rows = mountList([
      record({ change: 'c2', after: null, before: { id: 9, name: 'Gone brand' }, id: 9 }),
      record({ change: 'c3', before: null, after: { id: 10, name: 'New brand' }, id: 10 }),
    ]).findAll('[data-test="change-entity"]')
    expect(rows.map((cell) => cell.text())).toEqual(['Gone brand (9)', 'New brand (10)'])
  })

  it('offers Revert only on an applied change no revert undid, and Revert batch only where the batch has one', () => {
    const wrapper = mountList(
      [record({ change: 'ok' }), record({ change: 'done', reverted: true }), record({ change: 'bad', outcome: 'failed', batch: 'b2', reason: 'Refused' })],
      { b1: 1, b2: 0 },
    )
    const rows = wrapper.findAll('[data-test="change-row"]')
    expect(rows.map((row) => row.find('[data-test="revert-change"]').exists())).toEqual([true, false, false])
    expect(rows.map((row) => row.find('[data-test="revert-batch"]').exists())).toEqual([true, true, false])
    expect(rows[1]?.text()).toContain('reverted')
  })
})
