// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { effectScope, shallowRef } from 'vue'
import type { PlanRowView, PlanSummary } from '@contract'
import { PLAN_PAGE, usePlan } from '../../../../../renderer/src/composables/bulk/usePlan'

const TOTAL = 1000
const summary: PlanSummary = {
  planId: 'plan-1',
  kind: 'brands',
  source: 'import',
  title: 'Import of brands.csv',
  counts: { create: 0, update: TOTAL, delete: 0, unchanged: 0, error: 0 },
  problems: [],
  total: TOTAL,
  fileName: 'brands.csv',
  columns: [],
  match: 'external_id',
}

function fakeApi() {
  const rows = vi.fn(async ({ offset, limit }: { offset: number; limit: number }) => ({
    ok: true as const,
    value: {
      total: TOTAL,
      rows: Array.from({ length: Math.min(limit, TOTAL - offset) }, (_unused, step): PlanRowView => ({
        row: offset + step + 1,
        action: 'update',
        id: offset + step,
        changes: { advertiser_domains: [['a.example'], ['a.example', 'b.example']] },
        errors: [],
        outcome: null,
      })),
    },
  }))
  Object.defineProperty(window, 'api', { configurable: true, value: { bulk: { rows }, onBulkProgress: () => () => undefined } })
  return rows
}

afterEach(() => vi.restoreAllMocks())

describe('usePlan', () => {
  it('asks for the next page before the list reaches it, and once only', async () => {
    const rows = fakeApi()
    const scope = effectScope()
    const plan = scope.run(() => usePlan(shallowRef(summary)))!
    // The window shows rows 150 to 175 of page 0: page 1 starts 25 rows below, within half a page.
    plan.prefetch(150, 175)
    plan.prefetch(150, 175)
    await vi.waitFor(() => expect(plan.rowAt(PLAN_PAGE)).not.toBeNull())
    expect(rows.mock.calls.map(([call]) => call.offset)).toEqual([0, PLAN_PAGE])
    // Far from a page's edge nothing more is asked.
    plan.prefetch(40, 65)
    expect(rows).toHaveBeenCalledTimes(2)
    scope.stop()
  })

  it('keeps each row made for drawing (texts formatted once, when its page arrives)', async () => {
    fakeApi()
    const scope = effectScope()
    const plan = scope.run(() => usePlan(shallowRef(summary)))!
    expect(plan.rowAt(3)).toBeNull()
    await vi.waitFor(() => expect(plan.rowAt(3)).not.toBeNull())
    const row = plan.rowAt(3)!
    expect(row.diffs).toEqual([{ field: 'advertiser_domains', before: 'a.example', after: 'a.example; b.example' }])
    expect(plan.rowAt(3)).toBe(row)
    scope.stop()
  })
})
