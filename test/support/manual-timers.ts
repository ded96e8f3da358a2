import type { WatchTimers } from '../../main/services/alerts/alert-watch'

/** A clock a test moves by hand: timers fire only when `advance` passes their time. */
export function createManualTimers(startMs: number) {
  let nowMs = startMs
  const pending = new Set<{ run: () => void; at: number }>()
  const timers: WatchTimers = {
    set(run, delayMs) {
      const handle = { run, at: nowMs + delayMs }
      pending.add(handle)
      return handle
    },
    clear: (handle) => void pending.delete(handle as { run: () => void; at: number }),
  }
  return {
    timers,
    now: () => new Date(nowMs),
    nowMs: () => nowMs,
    /** The delays still waiting, from now, soonest first. */
    waiting: () => [...pending].map((handle) => handle.at - nowMs).sort((a, b) => a - b),
    /** Moves the clock and runs every timer that came due, in time order. */
    advance(milliseconds: number): void {
      const until = nowMs + milliseconds
      for (;;) {
        const due = [...pending].filter((handle) => handle.at <= until).sort((a, b) => a.at - b.at)[0]
        if (due === undefined) break
        pending.delete(due)
        nowMs = due.at
        due.run()
      }
      nowMs = until
    },
  }
}
