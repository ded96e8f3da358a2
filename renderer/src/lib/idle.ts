import { lazy } from '../../../common/lazy'

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

/** The page's own idle callbacks, as a dependency (tests run them by hand). */
export interface NativeIdle {
  request(callback: (deadline: IdleTime) => void, timeoutMs: number): number
  cancel(handle: number): void
}

/** The frames owed to the user's input: a key, a click or typed text changes the page, and its frame shows it. */
export interface InputFrames {
  /** True from an input event until the frame after it has been painted. */
  awaiting(): boolean
  /** Runs `callback` once no input waits for its frame (at once when none does). */
  afterPaint(callback: () => void): void
}

/** When a frame's callbacks run, and a task after them (tests pass their own). */
export interface FrameClock {
  requestFrame(callback: () => void): void
  later(callback: () => void): void
}

const browserFrameClock: FrameClock = {
  requestFrame: (callback) => void requestAnimationFrame(() => callback()),
  later: (callback) => void setTimeout(callback, 0),
}

/**
 * Input events seen on the page, and when the frame after the latest one has been painted (a
 * task queued from that frame's animation callbacks runs once it has been drawn; an input
 * arriving meanwhile owes the next frame too). Listens from its first use on.
 */
export function pageInputFrames(target: EventTarget = globalThis, clock: FrameClock = browserFrameClock): InputFrames {
  let awaiting = false
  let inputs = 0
  let scheduled = false
  let waiters: Array<() => void> = []
  const schedule = (): void => {
    scheduled = true
    clock.requestFrame(() => {
      const seen = inputs
      clock.later(() => {
        scheduled = false
        if (inputs !== seen) return schedule()
        awaiting = false
        const ready = waiters
        waiters = []
        for (const waiter of ready) waiter()
      })
    })
  }
  const onInput = (): void => {
    inputs++
    awaiting = true
    if (!scheduled) schedule()
  }
  // Where there is no page to listen to (Node), no input is ever owed a frame.
  if (typeof target.addEventListener === 'function')
    for (const type of ['keydown', 'input', 'pointerdown']) target.addEventListener(type, onInput, { capture: true, passive: true })
  return {
    awaiting: () => awaiting,
    afterPaint: (callback) => (awaiting ? void waiters.push(callback) : callback()),
  }
}

/** How long ago the user last pressed a key, clicked, typed or scrolled with the wheel. */
export interface InputQuiet {
  sinceInput(): number
}

/** The page's input of these kinds, timed from now on (Infinity since input before any); `dispose` stops listening. */
export function pageInputQuiet(
  target: EventTarget = globalThis,
  now: () => number = () => performance.now(),
  types: readonly string[] = ['keydown', 'input', 'pointerdown', 'wheel'],
): InputQuiet & { dispose(): void } {
  let last = Number.NEGATIVE_INFINITY
  const onInput = (): void => void (last = now())
  const listening = typeof target.addEventListener === 'function'
  if (listening) for (const type of types) target.addEventListener(type, onInput, { capture: true, passive: true })
  return {
    sinceInput: () => now() - last,
    dispose: () => {
      if (listening) for (const type of types) target.removeEventListener(type, onInput, { capture: true })
    },
  }
}

/** The page's typing (keys and text input), listened to from the first pause that asks (not when the module loads). */
const pageTyping = lazy(() => pageInputQuiet(globalThis, undefined, ['keydown', 'input']))
export const pageTypingQuiet: InputQuiet = { sinceInput: () => pageTyping().sinceInput() }

/**
 * Resolves once `quiet` has heard no input for `quietMs`, or after `longestMs` however the input
 * goes on: background work that cannot be split (a large answer decoded in one task, and the
 * garbage collection after it) waits for a pause in the typing instead of landing between a key
 * and its frame.
 */
export async function inputPause(quiet: InputQuiet, quietMs: number, longestMs: number): Promise<void> {
  // Bounded by the waits asked for, not by a clock: one that stands still must not hold it forever.
  let waited = 0
  for (;;) {
    const since = quiet.sinceInput()
    // Input timed after now was heard on another clock (tests stop or set back performance.now).
    const left = since < 0 ? 0 : Math.min(quietMs - since, longestMs - waited)
    if (left <= 0) return
    await new Promise((resolve) => setTimeout(resolve, left))
    waited += left
  }
}

/** The page's input frames, listened to from the first idle callback that asks (not when a scheduler is made). */
const pageFrames = lazy(pageInputFrames)
const sharedInputFrames: InputFrames = {
  awaiting: () => pageFrames().awaiting(),
  afterPaint: (callback) => pageFrames().afterPaint(callback),
}

const pageIdle: NativeIdle = {
  request: (callback, timeoutMs) => requestIdleCallback(callback, { timeout: timeoutMs }),
  cancel: (handle) => cancelIdleCallback(handle),
}

/**
 * How many times an idle callback that timed out gives way to an input's frame before it runs
 * anyway: a page typed into without a pause still gets its background work done.
 */
const MAX_YIELDS_TO_INPUT = 3

/**
 * Idle callbacks that run within `timeoutMs` even on a page that is never idle, but never in
 * front of the frame a key or click is waiting for: one that timed out while an input's frame is
 * still owed (it would run as a plain task, between the input's work and its frame) is asked
 * for again once that frame has been painted. Traced in the entities bench, the rest of a long
 * list and its search text landed that way inside the first keystrokes after the list opened.
 * Callbacks given real idle time run as they come: the page is idle only once its frame is drawn.
 */
export function inputAwareIdle(timeoutMs: number, native: NativeIdle, frames: InputFrames): IdleScheduler {
  /** Our handle -> the native one now waiting (null while waiting for a paint). */
  const waiting = new Map<number, number | null>()
  let next = 0
  return {
    request: (callback) => {
      const handle = ++next
      let yields = 0
      const ask = (): void => {
        waiting.set(
          handle,
          native.request((deadline) => {
            if (deadline.didTimeout && yields < MAX_YIELDS_TO_INPUT && frames.awaiting()) {
              yields++
              waiting.set(handle, null)
              frames.afterPaint(() => {
                if (waiting.has(handle)) ask()
              })
              return
            }
            waiting.delete(handle)
            callback(deadline)
          }, timeoutMs),
        )
      }
      ask()
      return handle
    },
    cancel: (handle) => {
      const nativeHandle = waiting.get(handle)
      if (nativeHandle !== undefined && nativeHandle !== null) native.cancel(nativeHandle)
      waiting.delete(handle)
    },
  }
}

/** Idle callbacks that run within `timeoutMs` even on a page that is never idle, after any frame an input waits for. */
export function browserIdle(timeoutMs: number): IdleScheduler {
  return inputAwareIdle(timeoutMs, pageIdle, sharedInputFrames)
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
