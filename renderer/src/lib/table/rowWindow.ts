import { computed, onBeforeUnmount, onMounted, shallowRef, watch, type Ref } from 'vue'

/**
 * A window over a long list of rows of one fixed height: which rows to render for a scroll
 * position. Its cost depends on the screen, never on the number of rows: a list of 100,000
 * rows that a search replaces on every keystroke is neither walked nor indexed. (Naive UI's
 * virtual list, which this replaces for the entity table, rebuilt a key map and an offset tree
 * over every row whenever the rows changed: most of a keystroke's script over 100,000 rows.)
 */
export interface RowWindow {
  /** The first row rendered (a position in the list). */
  first: number
  /** One past the last row rendered. */
  end: number
  /** Where the first row rendered sits, in pixels from the top of the list. */
  offset: number
  /** The whole list's height in pixels (what the scroll bar spans). */
  height: number
}

/**
 * The rows to render for a scroll position, with `overscan` more on each side. A scroll
 * position past the end (the list just got shorter; the browser clamps it a moment later)
 * counts as the end, so a narrowed search never shows an empty window.
 */
export function rowWindow(count: number, rowHeight: number, scrollTop: number, viewportHeight: number, overscan: number): RowWindow {
  const height = count * rowHeight
  const top = Math.max(0, Math.min(scrollTop, height - viewportHeight))
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan)
  const end = Math.min(count, Math.ceil((top + viewportHeight) / rowHeight) + overscan)
  return { first, end: Math.max(first, end), offset: first * rowHeight, height }
}

/** The part of a ResizeObserver this needs: tests pass their own. */
export interface HeightObserver {
  observe(element: Element): void
  disconnect(): void
}
export type CreateHeightObserver = (report: (entries: readonly Pick<ResizeObserverEntry, 'contentRect'>[]) => void) => HeightObserver

/** How many frames a reveal cut short is tried again in (the scrollable height catches up in one or two). */
const REVEAL_ATTEMPTS = 4

const resizeObserver: CreateHeightObserver = (report) => new ResizeObserver(report)

/**
 * The window over `count` rows shown in the scrolling element `viewport`: follows its scroll
 * position (call `onScroll` from its scroll event) and its height. `reveal` scrolls just enough
 * to show one row.
 */
export function useRowWindow(
  viewport: Readonly<Ref<HTMLElement | null>>,
  count: () => number,
  rowHeight: number,
  {
    overscan = 2,
    createObserver = resizeObserver,
    nextFrame = (callback: () => void) => void requestAnimationFrame(callback),
  }: { overscan?: number; createObserver?: CreateHeightObserver; nextFrame?: (callback: () => void) => void } = {},
) {
  const scrollTop = shallowRef(0)
  const viewportHeight = shallowRef(0)
  const range = computed(() => rowWindow(count(), rowHeight, scrollTop.value, viewportHeight.value, overscan))

  let observer: HeightObserver | null = null
  let observed: HTMLElement | null = null
  function attach(element: HTMLElement | null): void {
    if (element === observed) return
    observer?.disconnect()
    observer = null
    observed = element
    if (!element) return
    // Measured at once, so the first rows show in the first paint, not one frame later.
    viewportHeight.value = element.clientHeight
    scrollTop.value = element.scrollTop
    observer = createObserver((entries) => {
      const entry = entries[entries.length - 1]
      if (entry) viewportHeight.value = entry.contentRect.height
    })
    observer.observe(element)
  }
  onMounted(() => attach(viewport.value))
  // Watched too, not only read when mounted: an element inside a modal or behind a v-if (the bulk
  // plan view) comes after its component is mounted; read once, the window kept a height of 0
  // and rendered only the overscan rows, leaving the rest of the viewport blank.
  watch(viewport, attach, { flush: 'post' })
  onBeforeUnmount(() => {
    observer?.disconnect()
    observer = null
    observed = null
  })

  /*
   * A reveal the browser cut short: the row is in the list, and the spacer already has the list's
   * new height, but Chromium clamps the scroll to the scrollable height of the last frame it drew
   * (measured: a row created and revealed in the same moment stopped 36 px short, under the edge,
   * and a double click aimed at it landed on its neighbour). It is applied again in the next
   * frames, until it lands or the user scrolls elsewhere.
   */
  let cutShort: number | null = null
  let scrolledTo = -1

  function onScroll(): void {
    const element = viewport.value
    if (!element) return
    if (Math.abs(element.scrollTop - scrolledTo) > 1) cutShort = null
    scrollTop.value = element.scrollTop
  }

  /** Scrolls just enough to show the row at `position`; false when the browser cut the scroll short. */
  function scrollToRow(element: HTMLElement, position: number): boolean {
    const top = position * rowHeight
    let next = element.scrollTop
    if (top < next) next = top
    // The height the window is computed with, so the row lands inside it.
    else if (top + rowHeight > next + viewportHeight.value) next = top + rowHeight - viewportHeight.value
    if (next === element.scrollTop) return true
    element.scrollTop = next
    scrolledTo = element.scrollTop
    // Rendered now, not when the scroll event comes: the keyboard moves rows at key-repeat speed.
    scrollTop.value = element.scrollTop
    return scrolledTo >= next - 1
  }

  /** Scrolls just enough to show the row at `position`. */
  function reveal(position: number): void {
    const element = viewport.value
    cutShort = null
    if (!element || scrollToRow(element, position)) return
    cutShort = position
    let attempts = REVEAL_ATTEMPTS
    const retry = (): void => {
      const current = viewport.value
      if (cutShort !== position || !current) return
      if (scrollToRow(current, position) || --attempts === 0) cutShort = null
      else nextFrame(retry)
    }
    nextFrame(retry)
  }

  return { range, onScroll, reveal }
}
