import { computed, onBeforeUnmount, shallowRef, watch, type Ref } from 'vue'
import type { EventPayload, PlanSummary } from '@contract'
import { api, errorMessage, unwrap } from '../../api/bridge'
import { planRowModel, type PlanRowModel } from './planRowModel'

export const PLAN_PAGE = 200
/** Plans whose progress is kept while another is on screen. */
const EARLY_PLANS = 4
type Progress = EventPayload<'onBulkProgress'>

/**
 * One plan on screen (a bulk edit, an import or a revert): its rows fetched a page at a time as
 * the list scrolls to them (main keeps the plan), the rows the user deselected, the apply with
 * its live progress, and an import's re-planning with another column mapping.
 */
export function usePlan(summary: Ref<PlanSummary | null>) {
  // Plain, not reactive: rows are read per row at every scroll step; `revision` says when they change.
  let pages = new Map<number, PlanRowModel[]>()
  /** Counts the pages arrived: the rows drawn are written again when it moves. */
  const revision = shallowRef(0)
  const loading = new Set<number>()
  const deselected = shallowRef(new Set<number>())
  const progress = shallowRef<Progress | null>(null)
  const error = shallowRef<string | null>(null)
  const busy = shallowRef(false)

  /** Applying: since the page's own Apply, or from the start when main says so (a resumed batch), until the run's progress says it ended. */
  const running = computed(() => (progress.value === null ? summary.value?.applying === true : !progress.value.finished))
  const sendCount = computed(() => {
    const counts = summary.value?.counts
    if (!counts) return 0
    return counts.create + counts.update + counts.delete - [...deselected.value].length
  })

  function reset(): void {
    pages = new Map()
    revision.value++
    loading.clear()
    deselected.value = new Set()
    progress.value = null
    error.value = null
  }

  async function loadPage(page: number): Promise<void> {
    const plan = summary.value
    if (!plan || loading.has(page)) return
    loading.add(page)
    try {
      const answer = await unwrap(api().bulk.rows({ planId: plan.planId, offset: page * PLAN_PAGE, limit: PLAN_PAGE }))
      if (summary.value?.planId !== plan.planId) return
      pages.set(page, answer.rows.map(planRowModel))
      revision.value++
    } catch (failure) {
      error.value = errorMessage(failure)
    } finally {
      loading.delete(page)
    }
  }

  /**
   * Asks for the pages around rows `first` to `end` before the list reaches them (half a page
   * either side), so a scroll finds its rows in hand instead of waiting a round trip to main.
   */
  function prefetch(first: number, end: number): void {
    const count = summary.value?.total ?? 0
    const low = Math.max(0, first - PLAN_PAGE / 2)
    const high = Math.min(count - 1, end + PLAN_PAGE / 2)
    for (let page = Math.floor(low / PLAN_PAGE); page <= Math.floor(high / PLAN_PAGE); page++) if (high >= 0 && !pages.has(page)) void loadPage(page)
  }

  /** The row at a position, or null while its page is on its way (asked for here). */
  function rowAt(position: number): PlanRowModel | null {
    const page = Math.floor(position / PLAN_PAGE)
    const rows = pages.get(page)
    if (rows === undefined) {
      void loadPage(page)
      return null
    }
    return rows[position % PLAN_PAGE] ?? null
  }

  function toggle(row: number, on: boolean): void {
    const next = new Set(deselected.value)
    if (on) next.delete(row)
    else next.add(row)
    deselected.value = next
  }

  async function apply(): Promise<void> {
    const plan = summary.value
    if (!plan) return
    error.value = null
    busy.value = true
    try {
      progress.value = {
        planId: plan.planId,
        batch: null,
        done: 0,
        total: sendCount.value,
        counts: { applied: 0, conflict: 0, failed: 0, skipped: 0, cancelled: 0 },
        finished: false,
        cancelled: false,
        error: null,
      }
      await unwrap(api().bulk.apply({ planId: plan.planId, deselected: [...deselected.value] }))
    } catch (failure) {
      progress.value = null
      error.value = errorMessage(failure)
    } finally {
      busy.value = false
    }
  }

  async function cancel(): Promise<void> {
    if (summary.value) await unwrap(api().bulk.cancel({ planId: summary.value.planId })).catch(() => undefined)
  }

  /** Plans the same file again with the user's mapping; the new counts replace the old, the rows are fetched again. */
  async function remap(mapping: Record<string, string | null>, match?: 'id' | 'external_id'): Promise<void> {
    const plan = summary.value
    if (!plan) return
    busy.value = true
    try {
      const next = await unwrap(api().bulk.replanImport({ planId: plan.planId, mapping, ...(match ? { match } : {}) }))
      reset()
      summary.value = next
    } catch (failure) {
      error.value = errorMessage(failure)
    } finally {
      busy.value = false
    }
  }

  // Progress refetches the pages already seen, so their outcomes show as they arrive: one
  // refetch at a time, and one more after it when events came meanwhile (never one per event).
  let refreshing = false
  let again = false
  async function refresh(): Promise<void> {
    if (refreshing) {
      again = true
      return
    }
    refreshing = true
    do {
      again = false
      const seen = [...pages.keys()]
      for (const page of seen) loading.delete(page)
      await Promise.all(seen.map((page) => loadPage(page)))
    } while (again)
    refreshing = false
  }
  // A resumed batch runs before its summary reaches the page, and the web host's events travel apart
  // from its answers: the latest progress of a few plans not (yet) on screen is kept for when one comes.
  const early = new Map<string, Progress>()
  const stop = api().onBulkProgress((event) => {
    if (event.planId === summary.value?.planId) {
      progress.value = event
      void refresh()
      return
    }
    early.delete(event.planId)
    early.set(event.planId, event)
    for (const planId of early.keys()) if (early.size > EARLY_PLANS) early.delete(planId)
  })
  watch(
    () => summary.value?.planId,
    (planId) => {
      const event = planId === undefined ? undefined : early.get(planId)
      early.clear()
      if (event === undefined) return
      progress.value = event
      void refresh()
    },
  )
  onBeforeUnmount(stop)

  return { rowAt, prefetch, revision, toggle, deselected, apply, cancel, remap, reset, progress, running, error, busy, sendCount }
}
