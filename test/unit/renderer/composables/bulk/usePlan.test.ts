// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { effectScope, nextTick, shallowRef } from 'vue'
import type { EventPayload, PlanRowView, PlanSummary } from '@contract'
import { PLAN_PAGE, usePlan } from '../../../../../renderer/src/composables/bulk/usePlan'
import type { IdleScheduler } from '../../../../../renderer/src/lib/idle'

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
  counts: { applied: done, conflict: 0, failed: 0, skipped: 0, cancelled: 0, unknown: 0 },
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
        name: null,
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

/** Idle or frame callbacks run by the test. */
function manualCallbacks() {
  const queue = new Map<number, () => void>()
  let next = 0
  const scheduler: IdleScheduler = {
    request: (callback) => {
      queue.set(++next, () => callback())
      return next
    },
    cancel: (handle) => void queue.delete(handle),
  }
  return {
    scheduler,
    run(): void {
      const callbacks = [...queue.values()]
      queue.clear()
      for (const callback of callbacks) callback()
    },
    get pending(): number {
      return queue.size
    },
  }
}

describe('usePlan', () => {
  it('asks for the pages ahead of the list in the way it scrolls, in an idle moment, before the list reaches them', async () => {
    const rows = fakeApi()
    const idle = manualCallbacks()
    const scope = effectScope()
    const plan = scope.run(() => usePlan(shallowRef(summary), { idle: idle.scheduler, frame: () => undefined }))!
    const asked = () => rows.mock.calls.map(([call]) => call.offset / PLAN_PAGE)
    // The list shows rows 600-617 (page 3): that page now, nothing else in the step itself.
    plan.prefetch(600, 617)
    plan.prefetch(600, 617)
    expect(asked()).toEqual([3])
    // In an idle moment: a page and a half ahead (page 4, which the list reaches ~14 steps later), half a page behind (page 2).
    idle.run()
    expect(asked()).toEqual([3, 4, 2])
    // Scrolling up: the pages above come first, then half a page below.
    plan.prefetch(580, 597)
    idle.run()
    expect(asked()).toEqual([3, 4, 2, 1])
    // Every page held or on its way: nothing is asked twice.
    await vi.waitFor(() => expect(plan.rowAt(PLAN_PAGE)).not.toBeNull())
    plan.prefetch(590, 607)
    idle.run()
    expect(asked()).toEqual([3, 4, 2, 1])
    scope.stop()
  })

  it('on progress asks again only for the pages on screen, and drops the others held: they are asked for again when shown', async () => {
    const listeners: Array<(event: Progress) => void> = []
    const rows = fakeApi(listeners)
    const idle = manualCallbacks()
    const scope = effectScope()
    const plan = scope.run(() => usePlan(shallowRef(summary), { idle: idle.scheduler, frame: () => undefined }))!
    const asked = () => rows.mock.calls.map(([call]) => call.offset / PLAN_PAGE)
    plan.prefetch(600, 617)
    idle.run()
    await vi.waitFor(() => expect(plan.rowAt(4 * PLAN_PAGE)).not.toBeNull())
    expect(asked()).toEqual([3, 4, 2])
    for (const listener of listeners) listener(progressOf(summary.planId, 10))
    await vi.waitFor(() => expect(asked()).toEqual([3, 4, 2, 3]))
    // Page 4 was dropped as out of date: reaching it asks for it again, with its outcomes.
    plan.prefetch(800, 817)
    expect(asked()).toEqual([3, 4, 2, 3, 4])
    scope.stop()
  })

  it('writes an arriving page into the list in the next frame, not in the task that brought it, and only when its rows are on screen', async () => {
    fakeApi()
    const idle = manualCallbacks()
    const frames = manualCallbacks()
    const scope = effectScope()
    const plan = scope.run(() => usePlan(shallowRef(summary), { idle: idle.scheduler, frame: (callback) => void frames.scheduler.request(callback) }))!
    const before = plan.revision.value
    plan.prefetch(0, 17)
    await vi.waitFor(() => expect(plan.rowAt(3)).not.toBeNull())
    // Arrived and held, but nothing written yet: one frame asked for.
    expect(plan.revision.value).toBe(before)
    expect(frames.pending).toBe(1)
    frames.run()
    expect(plan.revision.value).toBe(before + 1)
    // The page ahead arrives off screen: nothing to write, no frame asked.
    idle.run()
    await vi.waitFor(() => expect(plan.rowAt(PLAN_PAGE + 3)).not.toBeNull())
    expect(frames.pending).toBe(0)
    expect(plan.revision.value).toBe(before + 1)
    scope.stop()
  })

  it('keeps each row made for drawing (texts formatted once)', async () => {
    fakeApi()
    const scope = effectScope()
    const plan = scope.run(() => usePlan(shallowRef(summary), { idle: manualCallbacks().scheduler, frame: () => undefined }))!
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
