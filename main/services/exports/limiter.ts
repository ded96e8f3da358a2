/**
 * A queue that runs at most `maxConcurrency` tasks at once, in the order they were queued (the
 * shape of VS Code's `Limiter`). A task still waiting can be withdrawn; `dispose` drops every
 * waiting task and refuses new ones, while the running ones finish.
 */
export interface Limiter {
  /** Runs `task` once a slot is free; settles as the task does (rejects if withdrawn or disposed before it started). */
  queue<T>(task: () => Promise<T>): Promise<T>
  /** Takes a task out of the queue before it starts; false when it already started or was never queued. */
  withdraw(task: () => Promise<unknown>): boolean
  /** Tasks waiting for a slot. */
  readonly waiting: number
  /** Tasks running now. */
  readonly running: number
  /** Resolves once nothing runs and nothing waits. */
  idle(): Promise<void>
  dispose(): void
}

/** Why a queued task never ran. */
export class LimiterStopped extends Error {
  constructor(reason: 'withdrawn' | 'disposed') {
    super(reason === 'withdrawn' ? 'The task was withdrawn before it started.' : 'The queue was closed before the task started.')
    this.name = 'LimiterStopped'
  }
}

interface Waiting {
  task: () => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

export function createLimiter(maxConcurrency: number): Limiter {
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) throw new RangeError(`A limiter runs at least one task at once, not ${maxConcurrency}.`)
  const waiting: Waiting[] = []
  let running = 0
  let disposed = false
  let idlers: Array<() => void> = []

  function settleIdlers(): void {
    if (running > 0 || waiting.length > 0) return
    const resolved = idlers
    idlers = []
    for (const resolve of resolved) resolve()
  }

  function pump(): void {
    while (running < maxConcurrency && waiting.length > 0) {
      const next = waiting.shift() as Waiting
      running += 1
      // Started at once (not a tick later), so the task's first steps happen before `queue` returns.
      let started: Promise<unknown>
      try {
        started = next.task()
      } catch (error) {
        // A task that throws before returning its promise fails its own promise, not the queue.
        started = Promise.reject(error)
      }
      const release = (): void => {
        running -= 1
        pump()
        settleIdlers()
      }
      started.then(
        (value) => {
          release()
          next.resolve(value)
        },
        (error: unknown) => {
          release()
          next.reject(error)
        },
      )
    }
  }

  return {
    queue<T>(task: () => Promise<T>): Promise<T> {
      if (disposed) return Promise.reject(new LimiterStopped('disposed'))
      return new Promise<T>((resolve, reject) => {
        waiting.push({ task, resolve: resolve as (value: unknown) => void, reject })
        pump()
      })
    },
    withdraw(task) {
      const index = waiting.findIndex((entry) => entry.task === task)
      if (index < 0) return false
      const [entry] = waiting.splice(index, 1)
      entry?.reject(new LimiterStopped('withdrawn'))
      settleIdlers()
      return true
    },
    get waiting() {
      return waiting.length
    },
    get running() {
      return running
    },
    idle() {
      if (running === 0 && waiting.length === 0) return Promise.resolve()
      return new Promise<void>((resolve) => idlers.push(resolve))
    },
    dispose() {
      disposed = true
      for (const entry of waiting.splice(0)) entry.reject(new LimiterStopped('disposed'))
      settleIdlers()
    },
  }
}
