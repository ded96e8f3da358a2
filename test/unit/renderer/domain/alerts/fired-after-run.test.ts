import { describe, expect, it } from 'vitest'
import { createFiredAfterRun, type FiredAfterRunTimers } from '../../../../../renderer/src/domain/alerts/firedAfterRun'
import { firedAfterRunText } from '../../../../../renderer/src/domain/alerts/firedAfterRunText'

/** A manual clock: time moves only when the test says, and due timers then run. */
function manualTimers(): FiredAfterRunTimers & { advance(ms: number): void } {
  let now = 0
  const due = new Map<number, { atMs: number; run: () => void }>()
  let next = 0
  return {
    nowMs: () => now,
    set(run, delayMs) {
      next++
      due.set(next, { atMs: now + delayMs, run })
      return next
    },
    clear: (handle) => void due.delete(handle as number),
    advance(ms) {
      now += ms
      for (const [handle, timer] of [...due].sort((left, right) => left[1].atMs - right[1].atMs)) {
        if (timer.atMs > now) continue
        due.delete(handle)
        timer.run()
      }
    },
  }
}

function counter() {
  const timers = manualTimers()
  const told: Array<[string, number]> = []
  const fired = createFiredAfterRun({ windowMs: 60_000, settleMs: 800, timers, tell: (preset, count) => told.push([preset, count]) })
  return { timers, told, fired }
}

describe('alerts fired after a preset ran in Reports', () => {
  it('tells once, with the count, when the run’s alerts stop arriving', () => {
    const { timers, told, fired } = counter()
    fired.ran('Publishers watch')
    timers.advance(1500)
    fired.arrived({ preset: 'Publishers watch' })
    timers.advance(300)
    fired.arrived({ preset: 'Publishers watch' })
    timers.advance(700)
    expect(told).toEqual([])
    timers.advance(100)
    expect(told).toEqual([['Publishers watch', 2]])
    timers.advance(10_000)
    expect(told).toHaveLength(1)
  })

  it('tells nothing when no alert fired, or only another preset’s, or one long after the run', () => {
    const { timers, told, fired } = counter()
    fired.ran('Publishers watch')
    fired.arrived({ preset: 'Brands watch' })
    timers.advance(61_000)
    fired.arrived({ preset: 'Publishers watch' })
    timers.advance(5_000)
    expect(told).toEqual([])
  })

  it('counts afresh for a run again, and says one alert in the singular', () => {
    const { timers, told, fired } = counter()
    fired.ran('Publishers watch')
    fired.arrived({ preset: 'Publishers watch' })
    fired.ran('Publishers watch')
    fired.arrived({ preset: 'Publishers watch' })
    timers.advance(800)
    expect(told).toEqual([['Publishers watch', 1]])
    expect(firedAfterRunText('Publishers watch', 1)).toBe('"Publishers watch" ran: 1 alert fired.')
    expect(firedAfterRunText('Publishers watch', 3)).toBe('"Publishers watch" ran: 3 alerts fired.')
  })

  it('tells nothing once stopped (Reports left)', () => {
    const { timers, told, fired } = counter()
    fired.ran('Publishers watch')
    fired.arrived({ preset: 'Publishers watch' })
    fired.stop()
    timers.advance(5_000)
    expect(told).toEqual([])
  })
})
