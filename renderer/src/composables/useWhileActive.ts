import { onActivated, onBeforeUnmount, onDeactivated, onMounted, readonly, ref, type Ref } from 'vue'

/**
 * Runs `start` while the calling component is on screen: when it mounts, and again each time a
 * KeepAlive shows it; undoes it (with what `start` returned) when the KeepAlive puts it away or
 * it unmounts. A view kept alive in the background (Reports, so coming back to it is instant)
 * must not keep its commands, keys or window listeners meanwhile.
 */
export function useWhileActive(start: () => () => void): void {
  let stop: (() => void) | undefined
  const on = (): void => {
    stop ??= start()
  }
  const off = (): void => {
    stop?.()
    stop = undefined
  }
  // A component inside a KeepAlive gets both onMounted and onActivated at first: `on` runs once.
  onMounted(on)
  onActivated(on)
  onDeactivated(off)
  onBeforeUnmount(off)
}

/** Whether the calling component is on screen, by the same rule as useWhileActive. */
export function useIsActive(): Readonly<Ref<boolean>> {
  const active = ref(false)
  useWhileActive(() => {
    active.value = true
    return () => (active.value = false)
  })
  return readonly(active)
}
