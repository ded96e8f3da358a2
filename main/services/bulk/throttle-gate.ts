import { AppError, isAppError } from '../errors'

/**
 * One gate for the whole batch: when the platform answers 429, every worker waits out the
 * Retry-After before its next request, instead of each row hammering on its own. Time and
 * waiting are passed in, so a test runs the back-off on a fake clock.
 */
export interface ThrottleGate {
  /** Resolves once the batch may send again (at once when it is not throttled). */
  pass(signal: AbortSignal): Promise<void>
  /** A 429 arrived: the batch pauses for its Retry-After, or a doubling step when it gave none. */
  throttled(error: AppError): void
  /** Resets the doubling step once requests go through again. */
  passed(): void
}

export type Sleep = (milliseconds: number, signal: AbortSignal) => Promise<void>

export const realSleep: Sleep = (milliseconds, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve()
      return
    }
    const done = (): void => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, milliseconds)
    signal.addEventListener('abort', done, { once: true })
  })

const FIRST_STEP_MS = 1000
const LONGEST_STEP_MS = 30_000

export function createThrottleGate(now: () => number, sleep: Sleep): ThrottleGate {
  let until = 0
  let step = FIRST_STEP_MS
  return {
    async pass(signal) {
      while (!signal.aborted && now() < until) await sleep(until - now(), signal)
    },
    throttled(error) {
      const seconds = error.details?.retryAfterSeconds
      const wait = typeof seconds === 'number' && seconds >= 0 ? seconds * 1000 : step
      if (typeof seconds !== 'number') step = Math.min(LONGEST_STEP_MS, step * 2)
      until = Math.max(until, now() + Math.max(wait, 1))
    },
    passed() {
      step = FIRST_STEP_MS
    },
  }
}

/** Retries of one row after 429s before the batch stops (the platform keeps refusing). */
export const MAX_THROTTLED_TRIES = 20

/** Runs `send`, pausing the batch on each 429 and trying again; other failures go to the caller. */
export async function throughGate<T>(gate: ThrottleGate, signal: AbortSignal, send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    await gate.pass(signal)
    if (signal.aborted) throw new AppError('cancelled', 'The apply was cancelled.')
    try {
      const value = await send()
      gate.passed()
      return value
    } catch (error) {
      if (!isAppError(error) || error.code !== 'throttled' || attempt >= MAX_THROTTLED_TRIES) throw error
      gate.throttled(error)
    }
  }
}
