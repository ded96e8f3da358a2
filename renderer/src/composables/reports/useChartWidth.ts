import { onBeforeUnmount, onMounted, type Ref } from 'vue'

/** The part of a ResizeObserver this needs: tests pass their own. */
export interface WidthObserver {
  observe(element: Element): void
  disconnect(): void
}
export type CreateWidthObserver = (report: (entries: readonly Pick<ResizeObserverEntry, 'contentRect'>[]) => void) => WidthObserver

const resizeObserver: CreateWidthObserver = (report) => new ResizeObserver(report)

/**
 * Tells `onWidth` the element's width once it is laid out and again whenever it changes, so the
 * chart's point budget is known before the first run or kept chart is asked for, not only when
 * Run is clicked. A hidden tab measures 0: that is skipped, the width it had when shown stays.
 */
export function useChartWidth(element: Readonly<Ref<HTMLElement | null>>, onWidth: (width: number) => void, createObserver = resizeObserver): void {
  let observer: WidthObserver | null = null
  onMounted(() => {
    if (!element.value) return
    observer = createObserver((entries) => {
      const width = entries[entries.length - 1]?.contentRect.width ?? 0
      if (width > 0) onWidth(width)
    })
    observer.observe(element.value)
  })
  onBeforeUnmount(() => {
    observer?.disconnect()
    observer = null
  })
}
