import { onScopeDispose, ref, watch, type Ref } from 'vue'
import { browserTimers, type Timers } from '../lib/timers'

/**
 * `source` turned on only once it has stayed on for `delayMs`, and off at once: a spinner for
 * a wait that is quick (a report description main already holds) neither flashes nor makes
 * every control that shows it render twice for nothing.
 */
export function useDelayedFlag(source: () => boolean, delayMs = 150, timers: Timers = browserTimers): Readonly<Ref<boolean>> {
  const shown = ref(false)
  let pending: number | null = null
  const cancel = (): void => {
    if (pending !== null) timers.clear(pending)
    pending = null
  }
  watch(
    source,
    (on) => {
      cancel()
      if (!on) shown.value = false
      else
        pending = timers.set(() => {
          pending = null
          shown.value = true
        }, delayMs)
    },
    { immediate: true },
  )
  onScopeDispose(cancel)
  return shown
}
