import { onScopeDispose, watch } from 'vue'
import { browserIdle, type IdleScheduler } from '../../lib/idle'

/**
 * Does, while the user is not waiting on anything, what a first visit to a section would
 * otherwise wait for: once `ready` turns true, each step runs in an idle moment of its own, the
 * next one after the last has settled, so the work is spread over idle time rather than queued
 * ahead of the user's clicks (a page busy for five seconds on end gets it all the same). A step
 * that fails is left to be done again on first use, where its error is shown; the rest go on.
 */
export function useIdlePreload(ready: () => boolean, steps: ReadonlyArray<() => unknown>, idle: IdleScheduler = browserIdle(5_000)): void {
  let handle: number | null = null
  let stopped = false
  const runFrom = (index: number): void => {
    const step = steps[index]
    if (stopped || step === undefined) return
    handle = idle.request(() => {
      handle = null
      void Promise.resolve()
        .then(step)
        .catch(() => undefined)
        .then(() => runFrom(index + 1))
    })
  }
  let started = false
  watch(
    ready,
    (isReady) => {
      if (!isReady || started) return
      started = true
      runFrom(0)
    },
    { immediate: true },
  )
  onScopeDispose(() => {
    stopped = true
    if (handle !== null) idle.cancel(handle)
  })
}
