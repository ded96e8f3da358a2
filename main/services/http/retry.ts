import type { RetryHandler } from 'undici'
import { retryAfterSeconds } from './errors'
import { errorCodeOf, retryableNetworkCodes } from './network-codes'

/**
 * When and how long to wait before repeating a read. undici's retry interceptor does the
 * repeating; this module only decides, because its default decision has no jitter, cannot
 * be cancelled while it waits, and would happily wait out a Retry-After of an hour.
 */
export interface RetryPolicy {
  /** Repeats after the first attempt; 0 turns retrying off. */
  maxRetries: number
  /** The first backoff; each further one doubles, up to maxDelayMs. */
  baseDelayMs: number
  maxDelayMs: number
  /** A Retry-After longer than this is not waited out: the caller gets `throttled` with the wait instead. */
  maxRetryAfterMs: number
  statusCodes: readonly number[]
  errorCodes: readonly string[]
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 30_000,
  // 500 included: every request that reaches this policy is a read, so repeating it is harmless.
  statusCodes: [429, 500, 502, 503, 504],
  // Only failures before or while sending: see network-codes.ts for why the others are not repeated.
  errorCodes: retryableNetworkCodes,
}

/** "Equal jitter": half the exponential step is fixed, half random, so clients that failed together spread out. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1))
  return step / 2 + random() * (step / 2)
}

export interface RetryEvent {
  attempt: number
  delayMs: number
  statusCode: number | null
  errorCode: string | null
}

export interface RetryDecisionOptions {
  policy: RetryPolicy
  signal: AbortSignal | undefined
  /** True once the response was handed to the caller: a body half read cannot be repeated transparently. */
  responseStarted: () => boolean
  random: () => number
  now: () => number
  onRetry?: (event: RetryEvent) => void
}

type FailedAttempt = Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[] | undefined> }

/** The per-request `retry` callback given to undici's retry interceptor. */
export function createRetryDecision(options: RetryDecisionOptions): RetryHandler.RetryCallback {
  const { policy, signal, random, now } = options
  return (error, { state }, callback) => {
    const failed = error as FailedAttempt
    if (signal?.aborted === true || options.responseStarted() || state.counter > policy.maxRetries) {
      callback(error)
      return
    }
    const statusCode = failed.code === 'UND_ERR_REQ_RETRY' && typeof failed.statusCode === 'number' ? failed.statusCode : null
    const errorCode = statusCode === null ? errorCodeOf(error) : null
    const retryable = statusCode !== null ? policy.statusCodes.includes(statusCode) : errorCode !== null && policy.errorCodes.includes(errorCode)
    if (!retryable) {
      callback(error)
      return
    }

    let delayMs = backoffDelay(state.counter, policy, random)
    const waitSeconds = statusCode === null ? null : retryAfterSeconds(failed.headers?.['retry-after'], now)
    if (waitSeconds !== null) {
      const waitMs = waitSeconds * 1000
      if (waitMs > policy.maxRetryAfterMs) {
        callback(error)
        return
      }
      // The server's wait is a minimum; a little jitter on top keeps a crowd of clients from returning at once.
      delayMs = waitMs + random() * Math.min(policy.baseDelayMs, 250)
    }
    options.onRetry?.({ attempt: state.counter, delayMs, statusCode, errorCode })

    const proceed = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', proceed)
      // On abort this starts the next attempt at once, and undici's request handler, which saw the
      // abort, cancels it before anything is sent: the caller is not kept waiting for the backoff.
      callback(null)
    }
    const timer = setTimeout(proceed, delayMs)
    signal?.addEventListener('abort', proceed, { once: true })
  }
}
