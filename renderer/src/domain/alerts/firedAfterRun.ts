/**
 * Counts the alerts that fire for a preset just after it ran in Reports, so the run can tell
 * "2 alerts fired": main checks a preset's rules after its run (alertWatch.presetRan) and each
 * alert reaches the page alone (onAlertFired), so the count is told once they stop arriving.
 */

export interface FiredAfterRunTimers {
  set(run: () => void, delayMs: number): unknown
  clear(handle: unknown): void
  nowMs(): number
}

export interface FiredAfterRunOptions {
  /** An alert this long after the run is no longer the run's (a later quiet round's). */
  windowMs: number
  /** Told once no alert of the run came for this long. */
  settleMs: number
  timers: FiredAfterRunTimers
  tell(preset: string, fired: number): void
}

export interface FiredAfterRun {
  ran(preset: string): void
  arrived(alert: { preset: string }): void
  stop(): void
}

export const FIRED_AFTER_RUN_TIMING = { windowMs: 60_000, settleMs: 800 } as const

export function createFiredAfterRun(options: FiredAfterRunOptions): FiredAfterRun {
  let last: { preset: string; atMs: number } | null = null
  let fired = 0
  let timer: unknown = null

  function clear(): void {
    if (timer !== null) options.timers.clear(timer)
    timer = null
  }

  return {
    ran(preset) {
      clear()
      last = { preset, atMs: options.timers.nowMs() }
      fired = 0
    },
    arrived(alert) {
      if (last === null || alert.preset !== last.preset) return
      if (options.timers.nowMs() - last.atMs > options.windowMs) return
      fired++
      clear()
      const preset = last.preset
      timer = options.timers.set(() => {
        timer = null
        options.tell(preset, fired)
        last = null
        fired = 0
      }, options.settleMs)
    },
    stop() {
      clear()
      last = null
    },
  }
}
