import { computed, onBeforeUnmount, shallowRef, watch, type Ref } from 'vue'
import type { EventPayload, PlanSummary } from '@contract'
import { api, errorMessage, unwrap } from '../../api/bridge'
import { idleOrTask, type IdleScheduler, type IdleTime } from '../../lib/idle'
import { createPlanPages, PLAN_PAGE } from './planPages'
import type { PlanRowModel } from './planRowModel'
import type { FieldWords } from '../../domain/entities/fieldWords'

export { PLAN_PAGE } from './planPages'
/** Plans whose progress is kept while another is on screen. */
const EARLY_PLANS = 4
/**
 * Rows asked for ahead of the list in the way it scrolls (behind it, half a page): a page down
 * through 10,000 rows moves 13 rows a frame, so a page and a half is ~23 steps, time enough for
 * main's answer on a busy machine, and the list reaches rows already in hand.
 */
const AHEAD_ROWS = PLAN_PAGE * 1.5
const BEHIND_ROWS = PLAN_PAGE / 2
/** Idle work (pages ahead asked for, rows' texts made) runs within this even on a page that is never idle. */
const IDLE_TIMEOUT_MS = 100
type Progress = EventPayload<'onBulkProgress'>

export interface PlanDependencies {
  /** Idle moments: pages ahead of the list are asked for, and arrived rows' texts made, in them. */
  idle?: IdleScheduler
  /** Runs a callback before the next frame is drawn (requestAnimationFrame). */
  frame?: (callback: () => void) => void
  /** The plan's kind's field words (labels, Yes/No) its rows are written in. */
  words?: () => FieldWords
}

/**
 * One plan on screen (a bulk edit, an import or a revert): its rows fetched a page at a time as
 * the list scrolls to them (main keeps the plan), the rows the user deselected, the apply with
 * its live progress, and an import's re-planning with another column mapping.
 */
export function usePlan(
  summary: Ref<PlanSummary | null>,
  { idle = idleOrTask(IDLE_TIMEOUT_MS), frame = (callback) => void requestAnimationFrame(callback), words }: PlanDependencies = {},
) {
  // Plain, not reactive: rows are read per row at every scroll step; `revision` says when the rows shown change.
  const pages = createPlanPages(undefined, words)
  /** Moves when rows on screen changed (a page of them arrived, or came again with outcomes): the list writes them again. */
  const revision = shallowRef(0)
  const loading = new Set<number>()
  const deselected = shallowRef(new Set<number>())
  const progress = shallowRef<Progress | null>(null)
  const error = shallowRef<string | null>(null)
  const busy = shallowRef(false)
  /** The rows the list shows (from its last `prefetch`), and which way it last moved. */
  const shown = { first: 0, end: 0, down: true }

  /** Applying: since the page's own Apply, or from the start when main says so (a resumed batch), until the run's progress says it ended. */
  const running = computed(() => (progress.value === null ? summary.value?.applying === true : !progress.value.finished))
  const sendCount = computed(() => {
    const counts = summary.value?.counts
    if (!counts) return 0
    return counts.create + counts.update + counts.delete - [...deselected.value].length
  })

  let idleHandle: number | null = null
  let formatHandle: number | null = null
  function stopIdleWork(): void {
    if (idleHandle !== null) idle.cancel(idleHandle)
    if (formatHandle !== null) idle.cancel(formatHandle)
    idleHandle = formatHandle = null
  }
  function reset(): void {
    pages.clear()
    revision.value++
    loading.clear()
    stopIdleWork()
    deselected.value = new Set()
    progress.value = null
    error.value = null
  }

  // An arriving page is written into the list in the next frame, not in the message task that
  // brought it (that task then only decodes), and only when some of its rows are on screen.
  let redrawAsked = false
  function redrawNextFrame(): void {
    if (redrawAsked) return
    redrawAsked = true
    frame(() => {
      redrawAsked = false
      revision.value++
    })
  }
  const onScreen = (page: number): boolean => page * PLAN_PAGE < shown.end && (page + 1) * PLAN_PAGE > shown.first

  async function loadPage(page: number): Promise<void> {
    const plan = summary.value
    if (!plan || loading.has(page)) return
    loading.add(page)
    try {
      const answer = await unwrap(api().bulk.rows({ planId: plan.planId, offset: page * PLAN_PAGE, limit: PLAN_PAGE }))
      if (summary.value?.planId !== plan.planId) return
      pages.store(page, answer.rows)
      if (onScreen(page)) redrawNextFrame()
      if (formatHandle === null) formatHandle = idle.request(formatRows)
    } catch (failure) {
      error.value = errorMessage(failure)
    } finally {
      loading.delete(page)
    }
  }

  /** Makes the texts of rows that arrived, while the page is idle, so a scroll step finds them made. */
  function formatRows(time?: IdleTime): void {
    formatHandle = null
    if (pages.prepare(() => (time?.timeRemaining() ?? 0) > 1)) formatHandle = idle.request(formatRows)
  }

  /** The pages over rows `low` to `high` (inclusive) that are neither held nor on their way. */
  function missing(low: number, high: number): number[] {
    const wanted: number[] = []
    const last = Math.min(high, (summary.value?.total ?? 0) - 1)
    for (let page = Math.floor(Math.max(0, low) / PLAN_PAGE); page * PLAN_PAGE <= last; page++) if (!pages.has(page) && !loading.has(page)) wanted.push(page)
    return wanted
  }

  /** Asks main for the pages around the rows shown, in an idle moment: the way the list moves first. */
  function askAhead(): void {
    idleHandle = null
    const { first, end, down } = shown
    const ahead = down ? missing(end, end + AHEAD_ROWS - 1) : missing(first - AHEAD_ROWS, first - 1).reverse()
    const behind = down ? missing(first - BEHIND_ROWS, first - 1) : missing(end, end + BEHIND_ROWS - 1)
    for (const page of [...ahead, ...behind]) void loadPage(page)
  }

  /**
   * The list shows rows `first` to `end` (exclusive): their pages are asked for now when missing,
   * and the pages ahead of it in the way it scrolls in the next idle moment, so a scroll finds its
   * rows in hand instead of waiting for main.
   */
  function prefetch(first: number, end: number): void {
    if (first !== shown.first) shown.down = first > shown.first
    shown.first = first
    shown.end = end
    for (const page of missing(first, end - 1)) void loadPage(page)
    if (end > first) pages.touch(Math.floor(first / PLAN_PAGE), Math.floor((end - 1) / PLAN_PAGE))
    if (idleHandle === null) idleHandle = idle.request(askAhead)
  }

  /** The row at a position, or null while its page is on its way (asked for here). */
  function rowAt(position: number): PlanRowModel | null {
    const row = pages.rowAt(position)
    if (row !== undefined) return row
    void loadPage(Math.floor(position / PLAN_PAGE))
    return null
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
        counts: { applied: 0, conflict: 0, failed: 0, skipped: 0, cancelled: 0, unknown: 0 },
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

  /** The user's word on a row whose outcome is unknown (`createdId`: it was created as that id; null: send it again); the batch then continues on this plan. */
  async function settle(row: number, createdId: number | string | null): Promise<void> {
    const plan = summary.value
    if (!plan) return
    error.value = null
    busy.value = true
    // Running from before the call, as apply does: the run's events may arrive before its answer.
    const before = progress.value
    if (before) progress.value = { ...before, finished: false }
    try {
      await unwrap(api().bulk.settle({ planId: plan.planId, row, createdId }))
    } catch (failure) {
      if (progress.value?.finished === false) progress.value = before
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

  // Progress refetches the pages on screen, so their outcomes show as they arrive, and drops the
  // others (out of date now; asked for again when the list reaches them): refetching every page
  // held was up to 64 pages, 12,800 rows, for each event. One refetch at a time, and one more
  // after it when events came meanwhile (never one per event).
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
      const firstPage = Math.floor(shown.first / PLAN_PAGE)
      const lastPage = Math.floor((Math.max(shown.end, shown.first + 1) - 1) / PLAN_PAGE)
      pages.keepOnly(firstPage, lastPage)
      const onScreenPages = pages.held()
      for (const page of onScreenPages) loading.delete(page)
      await Promise.all(onScreenPages.map((page) => loadPage(page)))
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
  onBeforeUnmount(() => {
    stop()
    stopIdleWork()
  })

  return { rowAt, prefetch, revision, toggle, deselected, apply, settle, cancel, remap, reset, progress, running, error, busy, sendCount }
}
