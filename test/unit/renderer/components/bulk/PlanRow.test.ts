// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import type { PlanRowView } from '@contract'
import PlanRow from '../../../../../renderer/src/components/bulk/PlanRow.vue'
import { planRowModel } from '../../../../../renderer/src/composables/bulk/planRowModel'

const view = (overrides: Partial<PlanRowView> = {}): PlanRowView => ({
  row: 7,
  action: 'update',
  id: 42,
  changes: { name: ['Old', 'New'], advertiser_domains: [['a.example'], ['a.example', 'b.example']], note: [null, 'x'.repeat(120)] },
  errors: [],
  outcome: null,
  ...overrides,
})

describe('PlanRow', () => {
  it('draws plain elements: a named native check box that toggles the row, and a span tag for the action', async () => {
    const wrapper = mount(PlanRow, { props: { row: planRowModel(view()), position: 0, checked: true, locked: false } })
    // Naive's NCheckbox and NTag computed their theme per row on every scroll step: none is mounted.
    expect(wrapper.find('.n-checkbox').exists()).toBe(false)
    expect(wrapper.find('.n-tag').exists()).toBe(false)
    const check = wrapper.get<HTMLInputElement>('input[type="checkbox"][data-test="plan-row-check"]')
    expect(check.attributes('aria-label')).toBe('Apply row 7')
    expect(check.element.checked).toBe(true)
    check.element.checked = false
    await check.trigger('change')
    expect(wrapper.emitted('toggle')).toEqual([[7, false]])
    expect(wrapper.get('.tag').text()).toBe('update')
    expect(wrapper.get('.tag').classes()).toContain('tag-update')
  })

  it('has no check box for a row never sent, a disabled one while applying, and shows the outcome with its reason', () => {
    const error = mount(PlanRow, {
      props: {
        row: planRowModel(view({ action: 'error', errors: [{ row: 7, column: 'is_pmp_allowed', reason: 'not a boolean' }] })),
        position: 0,
        checked: true,
        locked: false,
      },
    })
    expect(error.find('input').exists()).toBe(false)
    expect(error.get('[data-test="plan-row-error"]').text()).toBe('is_pmp_allowed: not a boolean')

    const applied = mount(PlanRow, {
      props: {
        row: planRowModel(view({ outcome: { status: 'conflict', id: 42, reason: 'Changed on the platform' } })),
        position: 0,
        checked: true,
        locked: true,
      },
    })
    expect(applied.get('input').attributes('disabled')).toBeDefined()
    expect(applied.get('[data-test="plan-row-outcome"] .tag').text()).toBe('conflict')
    expect(applied.get('[data-test="plan-row-outcome"] .reason').text()).toBe('Changed on the platform')
  })
})

describe('planRowModel', () => {
  it('makes the texts once: values shortened, lists joined, nothing as a dash, a column named once', () => {
    const model = planRowModel(
      view({
        id: null,
        action: 'create',
        errors: [
          { row: 7, column: 'name', reason: 'name: too long' },
          { row: 7, column: null, reason: 'Duplicate key' },
        ],
      }),
    )
    expect(model.idText).toBe('new')
    expect(model.sendable).toBe(true)
    expect(model.diffs).toEqual([
      { field: 'name', before: 'Old', after: 'New' },
      { field: 'advertiser_domains', before: 'a.example', after: 'a.example; b.example' },
      { field: 'note', before: '—', after: `${'x'.repeat(79)}…` },
    ])
    expect(model.problems).toEqual(['name: too long', 'Duplicate key'])
  })
})
