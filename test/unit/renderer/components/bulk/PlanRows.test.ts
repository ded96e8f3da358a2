// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mount, type VueWrapper } from '@vue/test-utils'
import type { PlanRowView } from '@contract'
import PlanRows from '../../../../../renderer/src/components/bulk/PlanRows.vue'
import { PLAN_ROW_HEIGHT } from '../../../../../renderer/src/components/bulk/planRowElements'
import { planRowModel, type PlanRowModel } from '../../../../../renderer/src/composables/bulk/planRowModel'

const view = (overrides: Partial<PlanRowView> = {}): PlanRowView => ({
  row: 7,
  action: 'update',
  id: 42,
  name: null,
  changes: { name: ['Old', 'New'], advertiser_domains: [['a.example'], ['a.example', 'b.example']], note: [null, 'x'.repeat(120)] },
  errors: [],
  outcome: null,
  ...overrides,
})

/** 1,000 rows, every tenth an error; rows 500 and on not fetched yet (null). */
function rowsOf(count: number): Array<PlanRowModel | null> {
  return Array.from({ length: count }, (_unused, position) =>
    position >= 500
      ? null
      : planRowModel(
          position % 10 === 9
            ? view({
                row: position + 1,
                action: 'error',
                id: null,
                changes: {},
                errors: [{ row: position + 1, column: 'is_pmp_allowed', reason: 'not a boolean' }],
              })
            : view({ row: position + 1, id: position, changes: { name: [`Brand ${position}`, `Renamed ${position}`] } }),
        ),
  )
}

// happy-dom lays nothing out: the scroller says it is 5 rows high (2 more each side are drawn).
let clientHeight: PropertyDescriptor | undefined
beforeEach(() => {
  clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight')
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 5 * PLAN_ROW_HEIGHT })
})
afterEach(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight)
})

function mountRows(rows: Array<PlanRowModel | null>, props: { deselected?: Set<number>; locked?: boolean } = {}) {
  const prefetched: Array<[number, number]> = []
  const wrapper = mount(PlanRows, {
    props: {
      total: rows.length,
      rowAt: (position: number) => rows[position] ?? null,
      prefetch: (first: number, end: number) => void prefetched.push([first, end]),
      revision: 0,
      deselected: props.deselected ?? new Set<number>(),
      locked: props.locked ?? false,
    },
    attachTo: document.body,
  })
  return { wrapper, prefetched }
}

const shownRows = (wrapper: VueWrapper) => wrapper.findAll('[data-test="plan-rows"] [role="row"]').map((row) => row.attributes('aria-rowindex'))

async function scrollTo(wrapper: VueWrapper, top: number): Promise<void> {
  const viewport = wrapper.get<HTMLElement>('[data-test="plan-rows"]').element
  viewport.scrollTop = top
  viewport.dispatchEvent(new Event('scroll'))
  await wrapper.vm.$nextTick()
}

describe('PlanRows', () => {
  it('draws the rows on screen as plain elements: a named native check box, the action as a span, the diff, an error row without a check box', async () => {
    const { wrapper, prefetched } = mountRows(rowsOf(1000))
    await wrapper.vm.$nextTick()
    // Rows 0-4 on screen and 2 below (aria-rowindex counts the header as 1).
    expect(shownRows(wrapper)).toEqual(['2', '3', '4', '5', '6', '7', '8'])
    expect(prefetched.at(-1)).toEqual([0, 7])
    expect(wrapper.find('.n-checkbox').exists()).toBe(false)
    const first = wrapper.get('[data-test="plan-row"][data-row="1"]')
    expect(first.attributes('data-action')).toBe('update')
    expect(first.get('.tag').text()).toBe('update')
    expect(first.get('.tag').classes()).toContain('tag-update')
    expect(first.get('.detail').text()).toBe('name Brand 0 → Renamed 0')
    expect(first.get('.detail b').text()).toBe('name')
    const check = first.get<HTMLInputElement>('input[type="checkbox"][data-test="plan-row-check"]')
    expect(check.attributes('aria-label')).toBe('Apply row 1')
    expect(check.element.checked).toBe(true)
    check.element.checked = false
    await check.trigger('change')
    expect(wrapper.emitted('toggle')).toEqual([[1, false]])

    await scrollTo(wrapper, 9 * PLAN_ROW_HEIGHT)
    const error = wrapper.get('[data-test="plan-row"][data-row="10"]')
    expect(error.get<HTMLInputElement>('input').element.hidden).toBe(true)
    expect(error.get('[data-test="plan-row-error"]').text()).toBe('is_pmp_allowed: not a boolean')
    expect(error.get('.tag').text()).toBe('error')
  })

  it('names its columns in a header row the screen reader counts as row 1, outside the scroller so it stays in view', async () => {
    const { wrapper } = mountRows(rowsOf(1000))
    await scrollTo(wrapper, 20 * PLAN_ROW_HEIGHT)
    const grid = wrapper.get('[role="grid"]')
    expect(grid.attributes('aria-rowcount')).toBe('1001')
    const header = grid.get('[role="rowgroup"] [role="row"][aria-rowindex="1"]')
    expect(header.findAll('[role="columnheader"]').map((cell) => cell.text())).toEqual(['Send', 'Row', 'Action', 'Entity', 'Changes', 'Outcome'])
    expect(wrapper.get('[data-test="plan-rows"]').element.contains(header.element)).toBe(false)
  })

  it('names each row’s entity in its cell, the whole name on hover where the cell cuts it', () => {
    const { wrapper } = mountRows([planRowModel(view({ row: 3, id: 4, name: 'Humongous Electronics Global' }))])
    const cell = wrapper.get('[data-row="3"] .id')
    expect(cell.text()).toBe('Humongous Electronics Global (4)')
    expect(cell.attributes('title')).toBe('Humongous Electronics Global (4)')
  })

  it('a step of a viewport writes the new rows into the same elements: no row, cell or check box made or dropped', async () => {
    const { wrapper } = mountRows(rowsOf(1000))
    // Off the top, where the window has its rows above too.
    await scrollTo(wrapper, 5 * PLAN_ROW_HEIGHT)
    const layer = wrapper.get('.window').element
    const before = [...layer.children]
    const added: Node[] = []
    const removed: Node[] = []
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        // A diff or error span of its own may appear once, the first time a slot shows one; rows and cells never.
        if (record.target === layer || (record.target as Element).matches?.('[role="row"], [role="gridcell"]:not(.detail)')) {
          added.push(...record.addedNodes)
          removed.push(...record.removedNodes)
        }
      }
    })
    observer.observe(layer, { childList: true, subtree: true })
    for (let step = 2; step <= 20; step++) await scrollTo(wrapper, step * 5 * PLAN_ROW_HEIGHT)
    await Promise.resolve()
    observer.disconnect()
    expect({ added: added.length, removed: removed.length }).toEqual({ added: 0, removed: 0 })
    expect([...layer.children]).toEqual(before)
    // Rows 100-104 on screen, 2 above and 2 below, in list order.
    expect(shownRows(wrapper)).toEqual(['100', '101', '102', '103', '104', '105', '106', '107', '108'])
    expect((layer as HTMLElement).style.transform).toBe(`translateY(${98 * PLAN_ROW_HEIGHT}px)`)
  })

  it('a scroll of a row moves one row element from the top to the bottom and leaves the others as they are', async () => {
    const { wrapper } = mountRows(rowsOf(1000))
    await scrollTo(wrapper, 10 * PLAN_ROW_HEIGHT)
    const kept = wrapper.get('[data-row="11"]').element
    const text = kept.querySelector('.detail')?.firstChild
    await scrollTo(wrapper, 11 * PLAN_ROW_HEIGHT)
    expect(shownRows(wrapper)).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19'])
    expect(wrapper.get('[data-row="11"]').element).toBe(kept)
    expect(kept.querySelector('.detail')?.firstChild).toBe(text)
  })

  it('shows rows still on their way as placeholders, and the check boxes follow the deselection and the apply', async () => {
    const rows = rowsOf(1000)
    const { wrapper } = mountRows(rows, { deselected: new Set([2]) })
    await wrapper.vm.$nextTick()
    expect(wrapper.get<HTMLInputElement>('[data-row="2"] input').element.checked).toBe(false)
    await wrapper.setProps({ locked: true, deselected: new Set() })
    expect(wrapper.get<HTMLInputElement>('[data-row="2"] input').element.checked).toBe(true)
    expect(wrapper.findAll<HTMLInputElement>('input').every((check) => check.element.disabled)).toBe(true)

    await scrollTo(wrapper, 498 * PLAN_ROW_HEIGHT)
    const placeholder = wrapper.get('[aria-rowindex="502"]')
    expect(placeholder.attributes('data-test')).toBeUndefined()
    expect(placeholder.classes()).toContain('loading')
    expect(placeholder.text()).toBe('Loading…')
    // Its page arrives: the placeholder becomes the row, with its outcome.
    rows[500] = planRowModel(view({ row: 501, outcome: { status: 'conflict', id: 42, reason: 'Changed on the platform', candidates: [] } }))
    await wrapper.setProps({ revision: 1 })
    const arrived = wrapper.get('[data-test="plan-row"][data-row="501"]')
    expect(arrived.get('[data-test="plan-row-outcome"] .tag').text()).toBe('conflict')
    expect(arrived.get('[data-test="plan-row-outcome"] .reason').text()).toBe('Changed on the platform')
    expect(arrived.get('.detail').text()).toContain('name Old → New')
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
