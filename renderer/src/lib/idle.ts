/** What an idle callback is told: how long the page expects to stay idle (absent where a scheduler cannot say). */
export interface IdleTime {
  timeRemaining(): number
  readonly didTimeout: boolean
}

/** The page's idle callbacks, as a dependency: tests run them by hand. */
export interface IdleScheduler {
  request(callback: (idle?: IdleTime) => void): number
  cancel(handle: number): void
}

/** Idle callbacks that run within `timeoutMs` even on a page that is never idle. */
export function browserIdle(timeoutMs: number): IdleScheduler {
  return {
    request: (callback) => requestIdleCallback((deadline) => callback(deadline), { timeout: timeoutMs }),
    cancel: (handle) => cancelIdleCallback(handle),
  }
}

/** A task of its own for each callback: where there are no idle callbacks (Node, the test DOM). */
function taskScheduler(): IdleScheduler {
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  let next = 0
  return {
    request: (callback) => {
      const handle = ++next
      timers.set(
        handle,
        setTimeout(() => {
          timers.delete(handle)
          callback()
        }, 0),
      )
      return handle
    },
    cancel: (handle) => {
      clearTimeout(timers.get(handle))
      timers.delete(handle)
    },
  }
}

/** The page's idle callbacks where it has them, else a task of its own for each. */
export function idleOrTask(timeoutMs: number): IdleScheduler {
  return typeof requestIdleCallback === 'function' ? browserIdle(timeoutMs) : taskScheduler()
}

/** Resolves once the page has painted the changes made before it was called (the frame's callbacks run before it is drawn; a task after them runs once it has been). */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}
