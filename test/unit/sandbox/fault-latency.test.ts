import { describe, expect, it } from 'vitest'
import { FaultState, type SandboxFaults } from '../../../main/sandbox/faults'

const DEFAULTS: SandboxFaults = { latency_ms: 0, fail_rate: 0, throttle_per_s: 0, drop_export_after_bytes: 0, token_ttl_s: 3600, report_status: null }

/** A wait the test ends by hand: no clock, no timer. */
function manualWait(): { wait: (milliseconds: number) => Promise<void>; asked: number[]; release: () => void } {
  const asked: number[] = []
  let release = (): void => undefined
  return {
    asked,
    wait: (milliseconds) =>
      new Promise<void>((resolve) => {
        asked.push(milliseconds)
        release = resolve
      }),
    release: () => release(),
  }
}

describe('the latency fault', () => {
  it('counts a request while it waits out the latency, so a test knows its slow request arrived', async () => {
    const faults = new FaultState(DEFAULTS, () => new Date(0))
    faults.set({ latency_ms: 60_000 })
    const manual = manualWait()
    const waiting = faults.delayRequest(manual.wait)
    expect(manual.asked).toEqual([60_000])
    expect(faults.delayedRequests).toBe(1)
    // Lifting the latency does not shorten or uncount the request already waiting.
    faults.set({ latency_ms: 0 })
    expect(faults.delayedRequests).toBe(1)
    manual.release()
    await waiting
    expect(faults.delayedRequests).toBe(0)
  })

  it('does not count a request when there is no latency', async () => {
    const faults = new FaultState(DEFAULTS, () => new Date(0))
    const manual = manualWait()
    const waiting = faults.delayRequest(manual.wait)
    expect(faults.delayedRequests).toBe(0)
    manual.release()
    await waiting
    expect(manual.asked).toEqual([0])
  })
})
