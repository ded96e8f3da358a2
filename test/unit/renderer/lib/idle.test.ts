import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  inputAwareIdle,
  inputPause,
  pageInputFrames,
  pageInputQuiet,
  type IdleTime,
  type InputFrames,
  type InputQuiet,
  type NativeIdle,
} from '../../../../renderer/src/lib/idle'

/** Idle callbacks run by hand, each told whether it timed out. */
function manualIdle() {
  const waiting = new Map<number, (deadline: IdleTime) => void>()
  let next = 1
  const native: NativeIdle = {
    request: (callback) => (waiting.set(next, callback), next++),
    cancel: (handle) => void waiting.delete(handle),
  }
  const fire = (didTimeout: boolean): void => {
    for (const [handle, callback] of [...waiting]) {
      waiting.delete(handle)
      callback({ didTimeout, timeRemaining: () => (didTimeout ? 0 : 10) })
    }
  }
  return { native, waiting, fire }
}

/** An input's frame owed until `paint()`. */
function manualFrames() {
  let awaiting = false
  let waiters: Array<() => void> = []
  const frames: InputFrames = { awaiting: () => awaiting, afterPaint: (callback) => (awaiting ? void waiters.push(callback) : callback()) }
  return {
    frames,
    input: () => void (awaiting = true),
    paint: () => {
      awaiting = false
      const ready = waiters
      waiters = []
      for (const waiter of ready) waiter()
    },
  }
}

describe('inputAwareIdle', () => {
  it('holds a callback that timed out while a keystroke waits for its frame until that frame is painted', () => {
    const idle = manualIdle()
    const page = manualFrames()
    const scheduler = inputAwareIdle(200, idle.native, page.frames)
    const ran: string[] = []
    scheduler.request(() => ran.push('background'))
    page.input()
    // Timed out: it would run as a plain task between the keystroke's work and its frame.
    idle.fire(true)
    expect(ran).toEqual([])
    expect(idle.waiting.size).toBe(0)
    page.paint()
    // Asked for again once the frame is drawn, and run in the page's idle time.
    expect(idle.waiting.size).toBe(1)
    idle.fire(false)
    expect(ran).toEqual(['background'])
  })

  it('runs at once when given idle time, or when it timed out with no input waiting', () => {
    const idle = manualIdle()
    const page = manualFrames()
    const scheduler = inputAwareIdle(200, idle.native, page.frames)
    const ran: string[] = []
    scheduler.request(() => ran.push('timed out'))
    idle.fire(true)
    page.input()
    scheduler.request(() => ran.push('idle'))
    idle.fire(false)
    expect(ran).toEqual(['timed out', 'idle'])
  })

  it('gives way to input three times at most: a page typed into without a pause still gets its work done', () => {
    const idle = manualIdle()
    const page = manualFrames()
    const scheduler = inputAwareIdle(200, idle.native, page.frames)
    let ran = 0
    scheduler.request(() => ran++)
    for (let round = 0; round < 3; round++) {
      page.input()
      idle.fire(true)
      page.paint()
    }
    expect(ran).toBe(0)
    page.input()
    idle.fire(true)
    expect(ran).toBe(1)
  })

  it('cancels a callback while it waits for the frame', () => {
    const idle = manualIdle()
    const page = manualFrames()
    const scheduler = inputAwareIdle(200, idle.native, page.frames)
    let ran = 0
    const handle = scheduler.request(() => ran++)
    page.input()
    idle.fire(true)
    scheduler.cancel(handle)
    page.paint()
    expect(idle.waiting.size).toBe(0)
    idle.fire(true)
    expect(ran).toBe(0)
  })
})

describe('pageInputFrames', () => {
  it('owes a frame from an input event until the frame after it has been painted, the next one too for input in between', () => {
    const frameCallbacks: Array<() => void> = []
    const tasks: Array<() => void> = []
    const drawFrame = (): void => {
      for (const callback of frameCallbacks.splice(0)) callback()
    }
    const runTasks = (): void => {
      for (const task of tasks.splice(0)) task()
    }
    const target = new EventTarget()
    const frames = pageInputFrames(target, { requestFrame: (callback) => void frameCallbacks.push(callback), later: (callback) => void tasks.push(callback) })
    let painted = 0
    frames.afterPaint(() => painted++)
    expect(painted).toBe(1)
    target.dispatchEvent(new Event('input'))
    expect(frames.awaiting()).toBe(true)
    frames.afterPaint(() => painted++)
    drawFrame()
    // A key pressed after the frame's callbacks: its change is drawn in the next frame.
    target.dispatchEvent(new Event('keydown'))
    runTasks()
    expect(frames.awaiting()).toBe(true)
    expect(painted).toBe(1)
    drawFrame()
    runTasks()
    expect(frames.awaiting()).toBe(false)
    expect(painted).toBe(2)
  })
})

describe('pageInputQuiet', () => {
  it('times the last key, click, text or wheel, and stops listening once disposed', () => {
    let now = 1_000
    const target = new EventTarget()
    const quiet = pageInputQuiet(target, () => now)
    expect(quiet.sinceInput()).toBe(Number.POSITIVE_INFINITY)
    for (const type of ['keydown', 'input', 'pointerdown', 'wheel']) {
      target.dispatchEvent(new Event(type))
      now += 30
      expect(quiet.sinceInput()).toBe(30)
    }
    quiet.dispose()
    target.dispatchEvent(new Event('keydown'))
    now += 10
    expect(quiet.sinceInput()).toBe(40)
  })

  it('listens to the kinds of input it is given only', () => {
    let now = 0
    const target = new EventTarget()
    const typing = pageInputQuiet(target, () => now, ['keydown', 'input'])
    target.dispatchEvent(new Event('pointerdown'))
    target.dispatchEvent(new Event('wheel'))
    expect(typing.sinceInput()).toBe(Number.POSITIVE_INFINITY)
    target.dispatchEvent(new Event('input'))
    now += 5
    expect(typing.sinceInput()).toBe(5)
    typing.dispose()
  })
})

describe('inputPause', () => {
  afterEach(() => vi.useRealTimers())

  /** A clock and input timed by hand: `type()` is a key pressed now. */
  function typedInput() {
    vi.useFakeTimers()
    let last = Number.NEGATIVE_INFINITY
    const quiet: InputQuiet = { sinceInput: () => Date.now() - last }
    return { quiet, type: () => void (last = Date.now()) }
  }
  const settled = (promise: Promise<void>): { done: boolean } => {
    const state = { done: false }
    void promise.then(() => (state.done = true))
    return state
  }
  /** Presses `keys` keys, one every `everyMs`, the pause still waiting before each. */
  async function keepTyping(type: () => void, pause: { done: boolean }, everyMs: number, keys: number): Promise<void> {
    for (let key = 0; key < keys; key++) {
      await vi.advanceTimersByTimeAsync(everyMs)
      expect(pause.done).toBe(false)
      type()
    }
  }

  it('resolves at once when nothing was typed lately', async () => {
    const { quiet } = typedInput()
    const pause = settled(inputPause(quiet, 100, 1_000))
    await vi.advanceTimersByTimeAsync(0)
    expect(pause.done).toBe(true)
  })

  it('waits until no key came for the quiet time, however often keys come before', async () => {
    const { quiet, type } = typedInput()
    type()
    const pause = settled(inputPause(quiet, 100, 1_000))
    await keepTyping(type, pause, 60, 5)
    await vi.advanceTimersByTimeAsync(99)
    expect(pause.done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(pause.done).toBe(true)
  })

  it('waits no longer than the longest pause, for typing that never stops', async () => {
    const { quiet, type } = typedInput()
    type()
    const pause = settled(inputPause(quiet, 100, 1_000))
    // 24 keys 40 ms apart: 960 ms of typing with no pause of 100 ms.
    await keepTyping(type, pause, 40, 24)
    expect(pause.done).toBe(false)
    await vi.advanceTimersByTimeAsync(40)
    expect(pause.done).toBe(true)
  })

  it('does not wait on input timed after now, as a clock set back or stopped would give', async () => {
    vi.useFakeTimers()
    const pause = settled(inputPause({ sinceInput: () => -19_000 }, 100, 1_000))
    await vi.advanceTimersByTimeAsync(0)
    expect(pause.done).toBe(true)
  })
})
