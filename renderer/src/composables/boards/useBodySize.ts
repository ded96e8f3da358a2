import { onBeforeUnmount, onMounted, shallowRef, type Ref } from 'vue'

export interface BodySize {
  width: number
  height: number
}

/**
 * The element's content box in whole CSS pixels, kept up to date by a ResizeObserver: null until
 * it is first laid out. A tile's chart takes the size its body really has (the tile's rows, less
 * its title, stamp and error lines), where a fixed height was cut at the bottom of a short tile.
 * Whole pixels: ECharts measures its box in whole pixels and vue-echarts' autoresize compares
 * that with the observer's fractional size, so a chart in a box 478.67 px wide was laid out and
 * drawn a second time right after its first paint (~10 ms a tile). A hidden element measures 0:
 * that is skipped, the size it had when shown stays.
 */
export function useBodySize(element: Readonly<Ref<HTMLElement | null>>): Readonly<Ref<BodySize | null>> {
  const size = shallowRef<BodySize | null>(null)
  let observer: ResizeObserver | null = null
  onMounted(() => {
    if (!element.value) return
    observer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect
      if (!box || box.width <= 0 || box.height <= 0) return
      const next = { width: Math.floor(box.width), height: Math.floor(box.height) }
      if (next.width !== size.value?.width || next.height !== size.value.height) size.value = next
    })
    observer.observe(element.value)
  })
  onBeforeUnmount(() => {
    observer?.disconnect()
    observer = null
  })
  return size
}
