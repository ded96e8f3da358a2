/** The page's timers, as a dependency: tests pass their own and run them by hand. */
export interface Timers {
  set(callback: () => void, delayMs: number): number
  clear(handle: number): void
}

export const browserTimers: Timers = {
  set: (callback, delayMs) => window.setTimeout(callback, delayMs),
  clear: (handle) => window.clearTimeout(handle),
}
