// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import type { Outcome } from '@contract'
import { ApiError, unwrap } from '../../../../renderer/src/api/bridge'
import { debounce, useLatestCall } from '../../../../renderer/src/composables/useLatestCall'

/** A stand-in window.api with only what the composable uses: requests:cancel. */
function fakeCancel(answer: Outcome<null> = { ok: true, value: null }) {
  const cancel = vi.fn((_input: { requestId: string }) => Promise.resolve(answer))
  Object.defineProperty(window, 'api', { value: { requests: { cancel } }, configurable: true })
  return cancel
}

/** Calls that stay out until the test answers them, in the order they were made. */
function heldCalls<T>() {
  const calls: { requestId: string; args: unknown[]; answer: (value: T) => void; fail: (error: unknown) => void }[] = []
  const call = (requestId: string, ...args: unknown[]): Promise<T> =>
    new Promise<T>((answer, fail) => {
      calls.push({ requestId, args, answer, fail })
    })
  return { calls, call }
}

describe('useLatestCall', () => {
  afterEach(() => vi.useRealTimers())

  it('keeps only the newest answer: an older call answering last is dropped', async () => {
    fakeCancel()
    const { calls, call } = heldCalls<string>()
    const onValue = vi.fn()
    const latest = useLatestCall(call, { onValue })
    const first = latest.run('a')
    const second = latest.run('b')
    expect(latest.running.value?.requestId).toBe(calls[1]?.requestId)
    calls[1]!.answer('answer b')
    await second
    calls[0]!.answer('answer a')
    await first
    expect(onValue).toHaveBeenCalledTimes(1)
    expect(onValue).toHaveBeenCalledWith('answer b', 'b')
    expect(latest.running.value).toBeNull()
    expect(latest.loading.value).toBe(false)
  })

  it('gives each call its own request id and cancels the previous one in main', async () => {
    const cancel = fakeCancel()
    const { calls, call } = heldCalls<string>()
    const latest = useLatestCall(call)
    void latest.run()
    expect(cancel).not.toHaveBeenCalled()
    void latest.run()
    expect(calls[0]!.requestId).not.toBe(calls[1]!.requestId)
    expect(cancel).toHaveBeenCalledWith({ requestId: calls[0]!.requestId })
    expect(cancel).not.toHaveBeenCalledWith({ requestId: calls[1]!.requestId })
  })

  it('cancel() keeps the call the latest, so its own cancelled error arrives; abandon() drops it at once', async () => {
    const cancel = fakeCancel()
    const { calls, call } = heldCalls<string>()
    const onError = vi.fn()
    const latest = useLatestCall(call, { onError })
    const running = latest.run()
    expect(await latest.cancel()).toBeNull()
    expect(cancel).toHaveBeenCalledWith({ requestId: calls[0]!.requestId })
    calls[0]!.fail(new ApiError({ code: 'cancelled', message: 'The report was cancelled.' }))
    await running
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ code: 'cancelled' })

    const abandoned = latest.run()
    latest.abandon()
    expect(latest.running.value).toBeNull()
    expect(cancel).toHaveBeenLastCalledWith({ requestId: calls[1]!.requestId })
    calls[1]!.fail(new Error('late'))
    await abandoned
    expect(onError).toHaveBeenCalledTimes(1)
  })

  it('normalises every failure to an ApiError: main’s, a thrown Error, a thrown string, a failed cancel', async () => {
    fakeCancel({ ok: false, error: { code: 'not_found', message: 'No such request.' } })
    const errors: ApiError[] = []
    const failing = (_requestId: string, how: string): Promise<never> => {
      if (how === 'main') return unwrap(Promise.resolve({ ok: false, error: { code: 'validation', message: 'Pick a metric.' } }))
      if (how === 'error') return Promise.reject(new Error('socket closed'))
      return Promise.reject('plain text')
    }
    const latest = useLatestCall(failing, { onError: (error) => errors.push(error) })
    await latest.run('main')
    await latest.run('error')
    await latest.run('text')
    expect(errors.every((error) => error instanceof ApiError)).toBe(true)
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      ['validation', 'Pick a metric.'],
      ['internal', 'socket closed'],
      ['internal', 'plain text'],
    ])

    const { call } = heldCalls<string>()
    const held = useLatestCall(call)
    void held.run()
    const refused = await held.cancel()
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused?.code).toBe('not_found')
  })

  it('debounces scheduled tasks: only the last one runs, once the calls stop for the delay', () => {
    vi.useFakeTimers()
    fakeCancel()
    const latest = useLatestCall(() => Promise.resolve(null), { debounceMs: 250 })
    const task = vi.fn()
    latest.schedule(() => task('F'))
    vi.advanceTimersByTime(200)
    latest.schedule(() => task('FR'))
    vi.advanceTimersByTime(249)
    expect(task).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(task).toHaveBeenCalledTimes(1)
    expect(task).toHaveBeenCalledWith('FR')
    latest.schedule(() => task('gone'))
    latest.unschedule()
    vi.runAllTimers()
    expect(task).toHaveBeenCalledTimes(1)
  })

  it('stops a waiting task and the call still out when its owner goes away', () => {
    vi.useFakeTimers()
    const cancel = fakeCancel()
    const { calls, call } = heldCalls<string>()
    const task = vi.fn()
    const scope = effectScope()
    const latest = scope.run(() => useLatestCall(call, { debounceMs: 100 }))!
    void latest.run()
    latest.schedule(task)
    scope.stop()
    vi.runAllTimers()
    expect(task).not.toHaveBeenCalled()
    expect(cancel).toHaveBeenCalledWith({ requestId: calls[0]!.requestId })
  })
})

describe('debounce', () => {
  it('runs once with the last arguments, and not at all when cancelled', () => {
    vi.useFakeTimers()
    const seen = vi.fn()
    const debounced = debounce((text: string) => seen(text), 50)
    debounced('a')
    debounced('ab')
    vi.advanceTimersByTime(50)
    expect(seen.mock.calls).toEqual([['ab']])
    debounced('abc')
    debounced.cancel()
    vi.runAllTimers()
    expect(seen).toHaveBeenCalledTimes(1)
    vi.useRealTimers()
  })
})
