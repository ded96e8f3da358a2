import { describe, expect, it } from 'vitest'
import type { PlanRowView } from '@contract'
import { createPlanPages, PLAN_PAGE } from '../../../../../renderer/src/composables/bulk/planPages'

const pageOf = (page: number): PlanRowView[] =>
  Array.from({ length: PLAN_PAGE }, (_unused, step) => ({
    row: page * PLAN_PAGE + step + 1,
    action: 'update',
    id: page * PLAN_PAGE + step,
    name: null,
    changes: { name: ['Old', 'New'] },
    errors: [],
    outcome: null,
  }))

describe('plan pages', () => {
  it('keeps a bounded number of pages, dropping the one shown least recently, never one on screen', () => {
    const pages = createPlanPages(3)
    for (const page of [0, 1, 2, 3]) pages.store(page, pageOf(page))
    // Page 0 shown again: it becomes the most recent.
    pages.touch(0, 0)
    expect(pages.held()).toEqual([2, 3, 0])
    pages.store(4, pageOf(4))
    pages.touch(3, 4)
    expect(pages.held()).toEqual([0, 3, 4])
    expect(pages.rowAt(2 * PLAN_PAGE)).toBeUndefined()
  })

  it('makes the texts of rows not shown yet a slice at a time while there is time (one slice at least), skipping rows already shown', () => {
    const pages = createPlanPages()
    pages.store(0, pageOf(0))
    pages.store(1, pageOf(1))
    const shown = pages.rowAt(3)
    expect(pages.waiting()).toBe(2 * PLAN_PAGE - 1)
    // No idle time left: one slice of 25 all the same (row 3 among them, made already).
    expect(pages.prepare(() => false)).toBe(true)
    expect(pages.waiting()).toBe(2 * PLAN_PAGE - 25)
    expect(pages.rowAt(3)).toBe(shown)
    let asked = 0
    expect(pages.prepare(() => ++asked < 4)).toBe(true)
    expect(pages.waiting()).toBe(2 * PLAN_PAGE - 125)
    expect(pages.prepare(() => true)).toBe(false)
    expect(pages.waiting()).toBe(0)
  })

  it('makes a row’s texts the first time it is read, once', () => {
    const pages = createPlanPages()
    pages.store(1, pageOf(1))
    const row = pages.rowAt(PLAN_PAGE + 5)
    expect(row).toMatchObject({ row: PLAN_PAGE + 6, idText: String(PLAN_PAGE + 5), diffs: [{ field: 'name', before: 'Old', after: 'New' }] })
    expect(pages.rowAt(PLAN_PAGE + 5)).toBe(row)
    // Past the page's last row: nothing there.
    pages.store(2, pageOf(2).slice(0, 10))
    expect(pages.rowAt(2 * PLAN_PAGE + 10)).toBeNull()
  })
})
