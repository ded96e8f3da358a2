/** The page's idle callbacks, as a dependency: tests run them by hand. */
export interface IdleScheduler {
  request(callback: () => void): number
  cancel(handle: number): void
}

/** Idle callbacks that run within `timeoutMs` even on a page that is never idle. */
export function browserIdle(timeoutMs: number): IdleScheduler {
  return {
    request: (callback) => requestIdleCallback(callback, { timeout: timeoutMs }),
    cancel: (handle) => cancelIdleCallback(handle),
  }
}

/** Resolves once the page has painted the changes made before it was called (the frame's callbacks run before it is drawn; a task after them runs once it has been). */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}
