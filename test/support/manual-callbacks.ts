/**
 * Callbacks a test runs by hand, in the order they were queued: a stand-in for timers or idle
 * callbacks, for composables that take their scheduler as a dependency.
 */
export function manualCallbacks() {
  const waiting = new Map<number, () => void>()
  let next = 1
  return {
    add: (callback: () => void): number => (waiting.set(next, callback), next++),
    remove: (handle: number): void => void waiting.delete(handle),
    /** Runs every callback waiting now. */
    run: (): void => [...waiting].forEach(([handle, callback]) => (waiting.delete(handle), callback())),
    waiting,
  }
}
