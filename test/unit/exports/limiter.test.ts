import { describe, expect, it } from 'vitest'
import { createLimiter, LimiterStopped } from '../../../main/services/exports/limiter'

/** A task the test ends by hand, so nothing depends on timing. */
function gate<T = string>(value: T) {
  let open: () => void = () => undefined
  const opened = new Promise<void>((resolve) => (open = resolve))
  let started = false
  return {
    task: async (): Promise<T> => {
      started = true
      await opened
      return value
    },
    open,
    get started() {
      return started
    },
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('the exports queue (limiter)', () => {
  it('runs at most its concurrency at once; the next starts when one ends', async () => {
    const limiter = createLimiter(2)
    const gates = [gate('a'), gate('b'), gate('c')]
    const results = gates.map((one) => limiter.queue(one.task))
    expect(gates.map((one) => one.started)).toEqual([true, true, false])
    expect([limiter.running, limiter.waiting]).toEqual([2, 1])
    gates[1]?.open()
    expect(await results[1]).toBe('b')
    await settle()
    expect(gates[2]?.started).toBe(true)
    expect([limiter.running, limiter.waiting]).toEqual([2, 0])
    gates[0]?.open()
    gates[2]?.open()
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c'])
    expect([limiter.running, limiter.waiting]).toEqual([0, 0])
  })

  it('starts waiting tasks in the order they were queued', async () => {
    const limiter = createLimiter(1)
    const started: number[] = []
    const first = gate(0)
    void limiter.queue(first.task)
    const rest = [1, 2, 3, 4].map((index) =>
      limiter.queue(async () => {
        started.push(index)
      }),
    )
    expect(started).toEqual([])
    first.open()
    await Promise.all(rest)
    expect(started).toEqual([1, 2, 3, 4])
  })

  it('a failing task fails its own promise and frees its slot', async () => {
    const limiter = createLimiter(1)
    const thrown = limiter.queue(() => {
      throw new Error('before any promise')
    })
    const rejected = limiter.queue(async () => Promise.reject(new Error('later')))
    const next = limiter.queue(async () => 'ran')
    await expect(thrown).rejects.toThrow('before any promise')
    await expect(rejected).rejects.toThrow('later')
    expect(await next).toBe('ran')
  })

  it('withdraws a waiting task (it never runs), but not one that started', async () => {
    const limiter = createLimiter(1)
    const running = gate('running')
    const waiting = gate('waiting')
    const first = limiter.queue(running.task)
    const second = limiter.queue(waiting.task)
    expect(limiter.withdraw(running.task)).toBe(false)
    expect(limiter.withdraw(waiting.task)).toBe(true)
    expect(limiter.withdraw(waiting.task)).toBe(false)
    await expect(second).rejects.toBeInstanceOf(LimiterStopped)
    running.open()
    expect(await first).toBe('running')
    await settle()
    expect(waiting.started).toBe(false)
  })

  it('dispose drops the waiting tasks and refuses new ones; running ones finish, then it is idle', async () => {
    const limiter = createLimiter(1)
    const running = gate('running')
    const waiting = gate('waiting')
    const first = limiter.queue(running.task)
    const second = limiter.queue(waiting.task)
    let idle = false
    const whenIdle = limiter.idle().then(() => (idle = true))
    limiter.dispose()
    await expect(second).rejects.toMatchObject({ name: 'LimiterStopped', message: expect.stringContaining('closed') })
    await expect(limiter.queue(async () => 'late')).rejects.toBeInstanceOf(LimiterStopped)
    expect(limiter.waiting).toBe(0)
    await settle()
    expect(idle).toBe(false)
    running.open()
    expect(await first).toBe('running')
    await whenIdle
    expect(idle).toBe(true)
    expect(waiting.started).toBe(false)
  })

  it('refuses a concurrency below one with a sentence', () => {
    expect(() => createLimiter(0)).toThrow('A limiter runs at least one task at once, not 0.')
  })
})
