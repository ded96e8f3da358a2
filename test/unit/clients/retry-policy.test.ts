import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { backoffDelay, createRetryDecision, defaultRetryPolicy, type RetryPolicy } from '../../../main/services/http/retry'

const policy: RetryPolicy = { ...defaultRetryPolicy, maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 }

/** What undici's retry handler hands the decision: a RequestRetryError for a status, a coded error for the network. */
function statusFailure(statusCode: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error('Request failed'), { code: 'UND_ERR_REQ_RETRY', statusCode, headers })
}
function networkFailure(code: string): Error {
  return Object.assign(new Error(code), { code })
}

interface Outcome {
  retried: boolean
  delayMs: number | null
}

/** Runs one decision with fake timers replaced by a recorder; resolves with what was decided. */
function decide(error: Error, counter: number, options: { signal?: AbortSignal; started?: boolean; random?: number; now?: number } = {}): Promise<Outcome> {
  const delays: number[] = []
  const decision = createRetryDecision({
    policy,
    signal: options.signal,
    responseStarted: () => options.started === true,
    random: () => options.random ?? 0.5,
    now: () => options.now ?? Date.parse('2030-01-01T00:00:00Z'),
    onRetry: (event) => delays.push(event.delayMs),
  })
  const outcome = new Promise<Outcome>((resolve) => {
    decision(error, { state: { counter }, opts: { path: '/', method: 'GET' } }, (result) => {
      resolve({ retried: result === null || result === undefined, delayMs: delays[0] ?? null })
    })
  })
  // The backoff is a timer; fake time lets it pass at once.
  vi.runAllTimers()
  return outcome
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('backoff', () => {
  it('doubles per attempt with half of each step random, capped', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(50)
    expect(backoffDelay(1, policy, () => 1)).toBe(100)
    expect(backoffDelay(2, policy, () => 0)).toBe(100)
    expect(backoffDelay(3, policy, () => 1)).toBe(400)
    expect(backoffDelay(10, policy, () => 1)).toBe(1_000)
    expect(backoffDelay(10, policy, () => 0)).toBe(500)
  })
})

describe('the retry decision', () => {
  it('retries the statuses of the policy and nothing else', async () => {
    for (const status of [429, 500, 502, 503, 504]) expect((await decide(statusFailure(status), 1, { random: 0 })).retried).toBe(true)
    for (const status of [400, 401, 403, 404, 405, 406, 409]) expect((await decide(statusFailure(status), 1)).retried).toBe(false)
  })

  it('retries network failures, not a refusal nor other errors', async () => {
    for (const code of ['ECONNRESET', 'ENOTFOUND', 'UND_ERR_SOCKET']) expect((await decide(networkFailure(code), 1, { random: 0 })).retried).toBe(true)
    for (const code of ['ECONNREFUSED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_ABORTED', 'ERR_SOMETHING'])
      expect((await decide(networkFailure(code), 1)).retried).toBe(false)
  })

  it('stops after maxRetries', async () => {
    expect((await decide(statusFailure(503), 3, { random: 0 })).retried).toBe(true)
    expect((await decide(statusFailure(503), 4)).retried).toBe(false)
  })

  it('waits what Retry-After says, in seconds or as an HTTP date', async () => {
    expect((await decide(statusFailure(429, { 'retry-after': '0' }), 1, { random: 0 })).delayMs).toBe(0)
    expect(await decide(statusFailure(429, { 'retry-after': '2' }), 1, { random: 0 })).toEqual({ retried: true, delayMs: 2_000 })
  })

  it('reads an HTTP-date Retry-After against the clock', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    const outcome = await decide(statusFailure(503, { 'retry-after': new Date(now + 1_000).toUTCString() }), 1, { random: 0, now })
    expect(outcome.delayMs).toBe(1_000)
  })

  it('does not wait out a Retry-After longer than allowed: the caller gets the answer (throttled, with the wait)', async () => {
    const outcome = await decide(statusFailure(429, { 'retry-after': '3600' }), 1)
    expect(outcome).toEqual({ retried: false, delayMs: null })
  })

  it('never repeats once the body was handed to the caller, or after a cancel', async () => {
    expect((await decide(networkFailure('UND_ERR_SOCKET'), 1, { started: true })).retried).toBe(false)
    expect((await decide(statusFailure(503), 1, { signal: AbortSignal.abort() })).retried).toBe(false)
  })
})
