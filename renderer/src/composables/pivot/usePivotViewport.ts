import { computed, onBeforeUnmount, onMounted, shallowRef, watch, type Ref } from 'vue'
import { PIVOT_WINDOW_LIMITS, type PivotWindow, type PivotWindowRequest } from '../../../../common/pivot/types'

/** Where a pivot's cells come from: the page's own model, or main's engine for an opened file. */
export type PivotWindowSource = (request: PivotWindowRequest) => Promise<PivotWindow> | PivotWindow

export const PIVOT_SIZES = { rowHeight: 28, columnWidth: 112, levelWidth: 150, headerHeight: 44 } as const

/** A grid not laid out yet (hidden tab, a test's page) draws a screenful rather than nothing. */
const FALLBACK = { width: 960, height: 480 }
/** Rows and columns fetched beyond the screen on each side, so a scroll of a few lines fetches nothing. */
const OVERSCAN = { rows: 40, columns: 10 }

export interface PivotRange {
  rowStart: number
  rowEnd: number
  columnStart: number
  columnEnd: number
}

/**
 * The part of a pivot on screen (rows and columns, from the scroll position and the viewport's
 * size) and the window of cells fetched for it: a new window is asked for only when the screen
 * leaves the one held, and an answer that comes after a newer question is dropped.
 */
export function usePivotViewport(
  viewport: Readonly<Ref<HTMLElement | null>>,
  props: { source: PivotWindowSource; rowCount: number; columnCount: number; rowHeaderWidth: number },
) {
  const scroll = shallowRef({ top: 0, left: 0 })
  const size = shallowRef({ width: 0, height: 0 })
  const held = shallowRef<PivotWindow | null>(null)
  const problem = shallowRef<string | null>(null)
  let asked = 0

  const range = computed<PivotRange>(() => {
    const width = (size.value.width || FALLBACK.width) - props.rowHeaderWidth
    const height = (size.value.height || FALLBACK.height) - PIVOT_SIZES.headerHeight
    const rowStart = Math.min(Math.floor(scroll.value.top / PIVOT_SIZES.rowHeight), Math.max(0, props.rowCount - 1))
    const columnStart = Math.min(Math.floor(scroll.value.left / PIVOT_SIZES.columnWidth), Math.max(0, props.columnCount - 1))
    return {
      rowStart,
      rowEnd: Math.min(props.rowCount, rowStart + Math.ceil(height / PIVOT_SIZES.rowHeight) + 1),
      columnStart,
      columnEnd: Math.min(props.columnCount, columnStart + Math.ceil(width / PIVOT_SIZES.columnWidth) + 1),
    }
  })

  const covers = (window: PivotWindow | null, wanted: PivotRange): boolean =>
    window !== null &&
    window.rowStart <= wanted.rowStart &&
    window.rowStart + window.rows.length >= wanted.rowEnd &&
    window.columnStart <= wanted.columnStart &&
    window.columnStart + window.columns.length >= wanted.columnEnd

  async function fetch(wanted: PivotRange, force: boolean): Promise<void> {
    if (!force && covers(held.value, wanted)) return
    const rowStart = Math.max(0, wanted.rowStart - OVERSCAN.rows)
    const columnStart = Math.max(0, wanted.columnStart - OVERSCAN.columns)
    const request = {
      rowStart,
      rowCount: Math.min(PIVOT_WINDOW_LIMITS.rows, wanted.rowEnd + OVERSCAN.rows - rowStart),
      columnStart,
      columnCount: Math.min(PIVOT_WINDOW_LIMITS.columns, wanted.columnEnd + OVERSCAN.columns - columnStart),
    }
    const question = ++asked
    try {
      const answer = await props.source(request)
      if (question !== asked) return
      held.value = answer
      problem.value = null
    } catch (error) {
      if (question === asked) problem.value = `The pivot's cells could not be read: ${(error as Error).message}`
    }
  }

  watch(range, (wanted) => void fetch(wanted, false))
  // A new pivot (another layout, another file): everything held belongs to the old one.
  watch(
    () => [props.source, props.rowCount, props.columnCount],
    () => void fetch(range.value, true),
  )

  let observer: ResizeObserver | null = null
  onMounted(() => {
    const element = viewport.value
    if (element) {
      size.value = { width: element.clientWidth, height: element.clientHeight }
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => (size.value = { width: element.clientWidth, height: element.clientHeight }))
        observer.observe(element)
      }
    }
    void fetch(range.value, true)
  })
  onBeforeUnmount(() => observer?.disconnect())

  function onScroll(): void {
    const element = viewport.value
    if (element) scroll.value = { top: element.scrollTop, left: element.scrollLeft }
  }

  /** Scrolls just enough to show a cell (the keyboard's), and draws at once rather than at the scroll event. */
  function reveal(row: number, column: number): void {
    const element = viewport.value
    if (!element) return
    const width = (element.clientWidth || FALLBACK.width) - props.rowHeaderWidth
    const height = (element.clientHeight || FALLBACK.height) - PIVOT_SIZES.headerHeight
    const top = row * PIVOT_SIZES.rowHeight
    const left = column * PIVOT_SIZES.columnWidth
    let { scrollTop, scrollLeft } = element
    if (top < scrollTop) scrollTop = top
    else if (top + PIVOT_SIZES.rowHeight > scrollTop + height) scrollTop = top + PIVOT_SIZES.rowHeight - height
    if (left < scrollLeft) scrollLeft = left
    else if (left + PIVOT_SIZES.columnWidth > scrollLeft + width) scrollLeft = left + PIVOT_SIZES.columnWidth - width
    element.scrollTop = scrollTop
    element.scrollLeft = scrollLeft
    scroll.value = { top: Math.max(0, scrollTop), left: Math.max(0, scrollLeft) }
  }

  /** The cell's number when its window is held; undefined while it is being fetched. */
  function valueAt(row: number, column: number): number | null | undefined {
    const window = held.value
    if (window === null) return undefined
    return window.cells[row - window.rowStart]?.[column - window.columnStart]
  }

  /** The cells on screen are being fetched (the grid says so with aria-busy; a bench waits for it). */
  const fetching = computed(() => props.rowCount > 0 && props.columnCount > 0 && !covers(held.value, range.value))

  /** Rows a page key moves by. */
  const pageRows = computed(() => Math.max(1, range.value.rowEnd - range.value.rowStart - 2))

  return { range, held, problem, fetching, onScroll, reveal, valueAt, pageRows }
}
