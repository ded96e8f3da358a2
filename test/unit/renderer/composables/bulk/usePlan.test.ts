// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { effectScope, nextTick, shallowRef } from 'vue'
import type { EventPayload, PlanRowView, PlanSummary } from '@contract'
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
  applying: false,
}

type Progress = EventPayload<'onBulkProgress'>
const progressOf = (planId: string, done: number, finished = false): Progress => ({
  planId,
  batch: 'batch-1',
  done,
  total: TOTAL,
  counts: { applied: done, conflict: 0, failed: 0, skipped: 0, cancelled: 0 },
  finished,
  cancelled: false,
  error: null,
})

function fakeApi(listeners: Array<(event: Progress) => void> = []) {
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
  const onBulkProgress = (listener: (event: Progress) => void) => {
    listeners.push(listener)
    return () => undefined
  }
  Object.defineProperty(window, 'api', { configurable: true, value: { bulk: { rows }, onBulkProgress } })
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

  it('shows a resumed batch applying from the start, before its first progress, until its run says it ended', async () => {
    const listeners: Array<(event: Progress) => void> = []
    fakeApi(listeners)
    const scope = effectScope()
    const resumed = shallowRef<PlanSummary | null>({ ...summary, planId: 'resumed', applying: true })
    const plan = scope.run(() => usePlan(resumed))!
    // Main said it is applying: Apply stays disabled and the progress shows, with no event yet.
    expect(plan.progress.value).toBeNull()
    expect(plan.running.value).toBe(true)
    for (const listener of listeners) listener(progressOf('resumed', 10))
    expect(plan.running.value).toBe(true)
    expect(plan.progress.value?.done).toBe(10)
    for (const listener of listeners) listener(progressOf('resumed', TOTAL, true))
    expect(plan.running.value).toBe(false)
    scope.stop()
  })

  it('keeps the progress of a plan that came before its summary (a resume whose run moved first)', async () => {
    const listeners: Array<(event: Progress) => void> = []
    fakeApi(listeners)
    const scope = effectScope()
    const shown = shallowRef<PlanSummary | null>(null)
    const plan = scope.run(() => usePlan(shown))!
    for (const listener of listeners) listener(progressOf('resumed', TOTAL, true))
    shown.value = { ...summary, planId: 'resumed', applying: true }
    await nextTick()
    expect(plan.progress.value).toMatchObject({ planId: 'resumed', finished: true })
    expect(plan.running.value).toBe(false)
    scope.stop()
  })
})
