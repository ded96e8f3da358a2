import { z } from 'zod'

export interface SandboxFaults {
  /** Delay before every response, in milliseconds. */
  latency_ms: number
  /** Share (0..1) of API requests that fail: workflow 500, reporting internal_error. 1 = always. */
  fail_rate: number
  /** Per-token budget of requests per second; beyond it 429 with Retry-After. 0 = unlimited. */
  throttle_per_s: number
  /** Export responses are cut (socket destroyed) after this many body bytes. 0 = never. */
  drop_export_after_bytes: number
  /** Lifetime of tokens issued from now on, in seconds. */
  token_ttl_s: number
  /** Forces this status on every reporting response. */
  report_status?: 'timeout' | 'internal_error' | null
}

export const faultsSchema = z.strictObject({
  latency_ms: z.int().min(0).max(600_000).optional(),
  fail_rate: z.number().min(0).max(1).optional(),
  throttle_per_s: z.int().min(0).optional(),
  drop_export_after_bytes: z.int().min(0).optional(),
  token_ttl_s: z.int().min(1).optional(),
  report_status: z.enum(['timeout', 'internal_error']).nullable().optional(),
})

export function describeFaultsError(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue ? `${issue.path.join('.') || 'faults'}: ${issue.message}` : 'invalid faults'
}

/** Run-time fault injection, deterministic so tests that use it are repeatable. */
export class FaultState {
  private faults: SandboxFaults
  private requestCounter = 0
  /** Requests waiting out `latency_ms` now. */
  private delayed = 0
  private readonly windows = new Map<string, { second: number; count: number }>()

  constructor(
    private readonly defaults: SandboxFaults,
    private readonly now: () => Date,
  ) {
    this.faults = { ...defaults }
  }

  get current(): SandboxFaults {
    return this.faults
  }

  /**
   * How many requests are waiting out a latency now (`delayed_requests` in GET /__sandbox/faults):
   * a test that slows one request down knows it arrived before it lifts the latency for the next.
   */
  get delayedRequests(): number {
    return this.delayed
  }

  /** Waits the latency in force when the request arrived, counted in `delayedRequests` meanwhile. */
  async delayRequest(wait: (milliseconds: number) => Promise<void>): Promise<void> {
    const latency = this.faults.latency_ms
    if (latency > 0) this.delayed++
    try {
      await wait(latency)
    } finally {
      if (latency > 0) this.delayed--
    }
  }

  /** Validates and merges; throws a ZodError on a bad value. */
  set(partial: unknown): void {
    const parsed = faultsSchema.parse(partial)
    const merged: SandboxFaults = { ...this.faults }
    for (const [name, value] of Object.entries(parsed)) {
      if (value !== undefined) Object.assign(merged, { [name]: value })
    }
    this.faults = merged
    this.requestCounter = 0
    this.windows.clear()
  }

  reset(): void {
    this.faults = { ...this.defaults }
    this.requestCounter = 0
    this.windows.clear()
  }

  /**
   * Spreads failures evenly by a counter: with fail_rate 0.5 every second request fails, with
   * 0.25 every fourth, with 1 all of them.
   */
  shouldFail(): boolean {
    const rate = this.faults.fail_rate
    if (rate <= 0) return false
    this.requestCounter++
    return Math.floor(this.requestCounter * rate) > Math.floor((this.requestCounter - 1) * rate)
  }

  /** Counts one request for the token; returns Retry-After seconds when it is over budget, else null. */
  throttle(token: string): number | null {
    const budget = this.faults.throttle_per_s
    if (budget <= 0) return null
    const milliseconds = this.now().getTime()
    const second = Math.floor(milliseconds / 1000)
    const window = this.windows.get(token)
    if (!window || window.second !== second) {
      this.windows.set(token, { second, count: 1 })
      return null
    }
    window.count++
    if (window.count <= budget) return null
    return Math.max(1, Math.ceil(((second + 1) * 1000 - milliseconds) / 1000))
  }
}
