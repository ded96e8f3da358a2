import { describe, expect, it } from 'vitest'
import { createAutoRefresh, type AutoRefreshClock } from '../../../../../renderer/src/domain/boards/autoRefresh'

/** A clock the test advances by hand: timers fire only when `advance` passes their time. */
function manualClock() {
  let now = 0
  let next = 1
  const timers = new Map<number, { at: number; callback: () => void }>()
  const clock: AutoRefreshClock = {
    setTimer(callback, milliseconds) {
      const id = next++
      timers.set(id, { at: now + milliseconds, callback })
      return id
    },
    clearTimer(timer) {
      timers.delete(timer as number)
    },
  }
  function advance(milliseconds: number): void {
    const until = now + milliseconds
    for (;;) {
      const due = [...timers].filter(([, timer]) => timer.at <= until).sort(([, left], [, right]) => left.at - right.at)[0]
      if (due === undefined) break
      timers.delete(due[0])
      now = due[1].at
      due[1].callback()
    }
    now = until
  }
  return { clock, advance, pending: () => timers.size }
}

/** A refresh the test ends by hand, counting calls. */
function manualRefresh() {
  const ends: Array<() => void> = []
  let calls = 0
  const refresh = () =>
    new Promise<void>((resolve) => {
      calls += 1
      ends.push(resolve)
    })
  return { refresh, calls: () => calls, end: () => ends.shift()?.() }
}

// A macrotask: the promise chain after a refresh ends has run by then.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const MINUTE = 60_000

describe("a presented board's auto-refresh", () => {
  it('refreshes once the chosen interval has passed, not before', () => {
    const { clock, advance } = manualClock()
    const board = manualRefresh()
    const auto = createAutoRefresh(board.refresh, clock)
    auto.setInterval(5)
    advance(5 * MINUTE - 1)
    expect(board.calls()).toBe(0)
    advance(1)
    expect(board.calls()).toBe(1)
  })

  it('waits the next interval only after a refresh has ended, so refreshes never overlap', async () => {
    const { clock, advance, pending } = manualClock()
    const board = manualRefresh()
    const auto = createAutoRefresh(board.refresh, clock)
    auto.setInterval(1)
    advance(MINUTE)
    expect(board.calls()).toBe(1)
    // The refresh is still running: however long it takes, no second one starts.
    advance(10 * MINUTE)
    expect(board.calls()).toBe(1)
    expect(pending()).toBe(0)
    board.end()
    await settle()
    advance(MINUTE)
    expect(board.calls()).toBe(2)
  })

  it('keeps going after a refresh that failed', async () => {
    const { clock, advance } = manualClock()
    let calls = 0
    const auto = createAutoRefresh(() => ((calls += 1), Promise.reject(new Error('offline'))), clock)
    auto.setInterval(1)
    advance(MINUTE)
    await settle()
    advance(MINUTE)
    expect(calls).toBe(2)
  })

  it('starts the wait again when the interval changes, and stops when set off or stopped', async () => {
    const { clock, advance, pending } = manualClock()
    const board = manualRefresh()
    const auto = createAutoRefresh(board.refresh, clock)
    auto.setInterval(15)
    advance(10 * MINUTE)
    auto.setInterval(5)
    expect(auto.minutes).toBe(5)
    advance(5 * MINUTE - 1)
    expect(board.calls()).toBe(0)
    advance(1)
    expect(board.calls()).toBe(1)
    // Switched off while that refresh runs: its end schedules nothing.
    auto.setInterval(null)
    board.end()
    await settle()
    advance(60 * MINUTE)
    expect(board.calls()).toBe(1)
    expect(pending()).toBe(0)
    auto.setInterval(1)
    auto.stop()
    expect(auto.minutes).toBe(null)
    advance(60 * MINUTE)
    expect(board.calls()).toBe(1)
  })
})
