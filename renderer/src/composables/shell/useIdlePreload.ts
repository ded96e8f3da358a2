import { onScopeDispose, watch } from 'vue'
import { browserIdle, pageInputQuiet, type IdleScheduler, type InputQuiet } from '../../lib/idle'
import { browserTimers, type Timers } from '../../lib/timers'

/**
 * A step waits for the user to have typed, clicked and scrolled nothing for this long: a view's
 * code, run and styled for a later visit, is not worth a key's frame. Traced in the entities
 * bench, the seven other views' chunks loaded one per idle moment during the first keystrokes
 * after a list opened, a module's evaluation (up to 16 ms) or a style sheet's restyle inside them.
 */
export const PRELOAD_QUIET_MS = 1_000

/**
 * Does, while the user is not waiting on anything, what a first visit to a section would
 * otherwise wait for: once `ready` turns true, each step runs in an idle moment of its own once
 * the user has paused (PRELOAD_QUIET_MS), the next one after the last has settled, so the work is
 * spread over idle time rather than queued ahead of the user's keys and clicks (a page busy for
 * five seconds on end gets it all the same). A step that fails is left to be done again on first
 * use, where its error is shown; the rest go on.
 */
export function useIdlePreload(
  ready: () => boolean,
  steps: ReadonlyArray<() => unknown>,
  idle: IdleScheduler = browserIdle(5_000),
  input?: InputQuiet,
  timers: Timers = browserTimers,
): void {
  // The page's own input, listened to while the shell lives, unless a test passes its own.
  let quiet: InputQuiet
  let pageInput: { dispose(): void } | null = null
  if (input === undefined) quiet = pageInput = pageInputQuiet()
  else quiet = input
  let handle: number | null = null
  let wait: number | null = null
  let stopped = false
  const runFrom = (index: number): void => {
    const step = steps[index]
    if (stopped || step === undefined) return
    handle = idle.request(() => {
      handle = null
      // While the user types or clicks, the step waits for a pause, then for an idle moment again.
      const left = PRELOAD_QUIET_MS - quiet.sinceInput()
      if (left > 0) {
        wait = timers.set(() => {
          wait = null
          runFrom(index)
        }, left)
        return
      }
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
    if (wait !== null) timers.clear(wait)
    pageInput?.dispose()
  })
}
