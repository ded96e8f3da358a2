/**
 * A presented board's auto-refresh: every 1, 5 or 15 minutes (or off) the board runs its usual
 * bounded refresh (domain/boards/refresh.ts). The next wait starts when a refresh has ended, so a
 * slow platform never stacks refreshes on one another; changing the interval starts the wait
 * again, and stopping clears it. Pure but for the clock it is given, so tests drive time by hand.
 */

/** The intervals a presenter can choose, in minutes. */
export const AUTO_REFRESH_MINUTES = [1, 5, 15] as const
export type AutoRefreshMinutes = (typeof AUTO_REFRESH_MINUTES)[number]

export interface AutoRefreshClock {
  setTimer(callback: () => void, milliseconds: number): unknown
  clearTimer(timer: unknown): void
}

export interface AutoRefresh {
  /** null: off. Starts the wait from now. */
  setInterval(minutes: AutoRefreshMinutes | null): void
  readonly minutes: AutoRefreshMinutes | null
  /** Clears the wait; a refresh already running is left to end (Cancel is the board's own). */
  stop(): void
}

export const browserClock: AutoRefreshClock = {
  setTimer: (callback, milliseconds) => setTimeout(callback, milliseconds),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}

/** `refresh` is the board's own (it returns at once when one is already running). */
export function createAutoRefresh(refresh: () => Promise<void>, clock: AutoRefreshClock = browserClock): AutoRefresh {
  let minutes: AutoRefreshMinutes | null = null
  let timer: unknown = null
  /** Bumped at every change, so a refresh that ends after one schedules nothing of the old interval. */
  let generation = 0

  function clear(): void {
    if (timer !== null) clock.clearTimer(timer)
    timer = null
  }

  function schedule(): void {
    clear()
    if (minutes === null) return
    const mine = generation
    timer = clock.setTimer(() => {
      timer = null
      // A failed refresh shows on its tiles; the next one is still due.
      void refresh()
        .catch(() => undefined)
        .then(() => {
          if (mine === generation) schedule()
        })
    }, minutes * 60_000)
  }

  return {
    setInterval(next) {
      generation += 1
      minutes = next
      schedule()
    },
    get minutes() {
      return minutes
    },
    stop() {
      generation += 1
      minutes = null
      clear()
    },
  }
}
