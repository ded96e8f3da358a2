import { computed, getCurrentScope, onScopeDispose, shallowRef, watch, type Ref } from 'vue'
import { idleOrTask, type IdleScheduler, type IdleTime } from '../idle'
import { TableIndex } from './TableIndex'
import type { SortState, TableColumn } from './types'
import { applyView, nextSort, withFilter } from './view'

/**
 * Search strings are built right after the rows show, in slices of this many rows, for at most
 * this long a task: typing at once meets them (nearly) ready, and a key pressed meanwhile waits
 * one short task at most. (They used to start 100 ms later: a search typed in those first
 * moments built all 100,000 of them in its own keystroke.)
 */
const WARM_SLICE = 500
const WARM_TASK_MS = 6
/**
 * The warm-up runs in the page's idle time (within this long on a page never idle): a keystroke
 * typed while a long list still arrives is searched and painted first, its frame never waiting
 * behind a slice of warm-up queued as a plain task before it.
 */
const WARM_IDLE_TIMEOUT_MS = 200

/** Chromium says when a key or click waits (where it can): the warm-up then gives way at once. */
function inputPending(): boolean {
  const scheduling = (globalThis.navigator as { scheduling?: { isInputPending?: () => boolean } } | undefined)?.scheduling
  return scheduling?.isInputPending?.() ?? false
}

/**
 * Sort, quick search and per-column filters over a plain array, fast enough for 100,000 rows:
 * `visible` follows the rows, the columns, the search box, the filters and the sort.
 *
 * The index is rebuilt only when the rows or the columns change; every keystroke reuses it.
 * Rows are never made deeply reactive: the caller passes a shallow ref of a plain array (a
 * new array when the data changes, the same row objects when they did not).
 */
export function useTable<Row>(rows: Ref<readonly Row[]>, columns: Ref<readonly TableColumn<Row>[]>, idle: IdleScheduler = idleOrTask(WARM_IDLE_TIMEOUT_MS)) {
  const query = shallowRef('')
  const filters = shallowRef<Record<string, string>>({})
  const sort = shallowRef<SortState | null>(null)
  const index = new TableIndex<Row>()
  const indexed = computed(() => {
    index.update(rows.value, columns.value)
    return { index }
  })

  /** Counts the warm-ups finished: a search that left out rows still without search text is run again then. */
  const warmed = shallowRef(0)
  // A keystroke searches only the rows with search text: rows of a long list that just arrived
  // wait for the warm-up (short tasks), which then extends the search over them. Building their
  // text inside the keystroke put up to a slice's worth of it in the keystroke's own task.
  const visible = computed<readonly Row[]>(() => {
    void warmed.value
    return applyView(indexed.value.index, { query: query.value, filters: filters.value, sort: sort.value }, true)
  })

  // Search strings are built in idle slices after the rows are shown, so the list opens at once and
  // the first keystroke finds them ready.
  let warming: number | null = null
  const warmUp = (time?: IdleTime): void => {
    warming = null
    // Within the idle time the page reports (a slice at least), and never more than a short task.
    const budget = time && !time.didTimeout ? Math.min(WARM_TASK_MS, time.timeRemaining()) : WARM_TASK_MS
    const until = performance.now() + budget
    let done = index.warm(WARM_SLICE)
    while (!done && performance.now() < until && !inputPending()) done = index.warm(WARM_SLICE)
    if (!done) warming = idle.request(warmUp)
    // The search over the rows just warmed, and the render, in an idle moment of their own.
    else if (query.value.trim() !== '')
      warming = idle.request(() => {
        warming = null
        warmed.value++
      })
  }
  watch(
    indexed,
    () => {
      if (warming !== null) idle.cancel(warming)
      warming = idle.request(warmUp)
    },
    { flush: 'post' },
  )
  if (getCurrentScope()) {
    onScopeDispose(() => {
      if (warming !== null) idle.cancel(warming)
    })
  }

  /** Header click: ascending, then descending, then unsorted. */
  function toggleSort(key: string): void {
    sort.value = nextSort(sort.value, key)
  }

  function setFilter(key: string, value: string): void {
    filters.value = withFilter(filters.value, key, value)
  }

  /** Clears the search and the filters; the sort stays. */
  function clear(): void {
    query.value = ''
    filters.value = {}
  }

  const filtered = computed(() => query.value.trim() !== '' || Object.keys(filters.value).length > 0)

  return { query, filters, sort, visible, filtered, toggleSort, setFilter, clear }
}

export type TableState<Row> = ReturnType<typeof useTable<Row>>
