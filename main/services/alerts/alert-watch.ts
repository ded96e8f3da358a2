/**
 * Rules are checked without a schedule (issue 39): once shortly after the app starts (or the demo
 * opens), then on a quiet interval while the app is open, and after a preset with rules runs in
 * Reports. Bounded so it never floods the platform: one preset at a time, nothing while the
 * machine is offline or while the platform is limiting requests (a 429 seen by any request holds
 * the watch back for its wait), and a failure of the connection (throttled, offline, timed out,
 * the platform's own error) backs off, doubling up to four hours. A check judges only buckets
 * older than the data lag (`alertLagHours`, in the check itself), so checking more often than
 * the interval finds nothing new; a run in Reports checks its preset at most every ten minutes.
 */
import { isAppError } from '../errors'
import type { AlertCheckResult } from './types'

/** The clock the watch waits on: real timers in the app, a manual clock in tests. */
export interface WatchTimers {
  set(run: () => void, delayMs: number): unknown
  clear(handle: unknown): void
}

export const realWatchTimers: WatchTimers = {
  set(run, delayMs) {
    const timer = setTimeout(run, delayMs)
    // A pending check never keeps the process alive (the command line, a closing app).
    timer.unref()
    return timer
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export const ALERT_WATCH_TIMING = {
  /** Between two rounds over every preset with rules. */
  everyMs: 30 * 60_000,
  /** From the start (or the demo opening) to the first round. */
  firstMs: 5_000,
  /** The longest a failing connection is left alone. */
  longestBackOffMs: 4 * 3_600_000,
  /** A preset run again in Reports within this is not checked again. */
  sameRunGapMs: 10 * 60_000,
} as const

/** Failures of the connection, not of one preset: the round stops and the watch backs off. */
const CONNECTION_FAILURES = new Set(['throttled', 'network', 'timeout', 'server', 'auth'])

export interface AlertWatchOptions {
  /** Checks one preset's rules: on the run's connection when one is given, else on the active one. */
  check(preset: string, profileId: string | null, signal: AbortSignal): Promise<AlertCheckResult>
  /** Presets whose rules file holds at least one rule, in the order to check them. */
  presetsWithRules(): Promise<string[]>
  hasRules(preset: string): Promise<boolean>
  /** False while the machine has no network (the host's; always true where it cannot tell). */
  online(): boolean
  nowMs(): number
  /** A check that failed: logged, never shown (nobody asked for it). */
  failed(preset: string, error: unknown): void
  timers?: WatchTimers
}

export interface AlertWatch {
  /** Starts the interval: a first round shortly, then one every 30 minutes. */
  start(): void
  /** A round shortly (the demo opened, the machine woke); nothing before start(). */
  soon(): void
  /** A preset ran in Reports: its rules are checked after the run, on the run's connection. */
  presetRan(preset: string, profileId: string): Promise<void>
  /** The platform asked to slow down: no check before the wait is over. */
  throttled(waitSeconds: number): void
  /** Resolves when no check is running or queued (tests wait on this, not on time). */
  idle(): Promise<void>
  stop(): Promise<void>
}

export function createAlertWatch(options: AlertWatchOptions): AlertWatch {
  const timers = options.timers ?? realWatchTimers
  const timing = ALERT_WATCH_TIMING
  let started = false
  let stopped = false
  let timer: unknown = null
  let backOffMs = 0
  /** No check before this instant (a 429's wait, or a failure's back-off). */
  let quietUntil = 0
  const queue: Array<{ preset: string; profileId: string | null }> = []
  const lastChecked = new Map<string, number>()
  const abort = new AbortController()
  let draining: Promise<void> | null = null
  let rounding: Promise<void> | null = null

  /** Whether the host says it is online; a host that cannot tell (or fails to) counts as online. */
  function online(): boolean {
    try {
      return options.online()
    } catch {
      return true
    }
  }
  const held = (): boolean => stopped || !online() || options.nowMs() < quietUntil

  function schedule(delayMs: number): void {
    if (timer !== null) timers.clear(timer)
    timer = timers.set(() => {
      timer = null
      // A round never rejects: what runs on a timer with nobody watching says why in the log instead.
      rounding = round()
        .catch((error: unknown) => options.failed('(every preset)', error))
        .finally(() => {
          rounding = null
        })
    }, delayMs)
  }

  async function round(): Promise<void> {
    if (stopped) return
    try {
      if (!held()) {
        const names = await options.presetsWithRules().catch(() => [])
        for (const preset of names) enqueue(preset, null)
        await drain()
      }
    } finally {
      // The next round is set whatever this one met: a watch never stops by itself.
      if (!stopped) schedule(Math.max(timing.everyMs, backOffMs, quietUntil - options.nowMs()))
    }
  }

  function enqueue(preset: string, profileId: string | null): void {
    if (!queue.some((entry) => entry.preset === preset)) queue.push({ preset, profileId })
  }

  function drain(): Promise<void> {
    draining ??= (async () => {
      // One preset at a time: each check is one chart request (two with its total) at most.
      for (let next = queue.shift(); next !== undefined && !held(); next = queue.shift()) {
        try {
          lastChecked.set(next.preset, options.nowMs())
          await options.check(next.preset, next.profileId, abort.signal)
          backOffMs = 0
        } catch (error) {
          if (stopped) break
          options.failed(next.preset, error)
          if (isAppError(error) && CONNECTION_FAILURES.has(error.code)) backOff(error.details?.retryAfterSeconds)
        }
      }
      queue.length = 0
    })().finally(() => {
      draining = null
    })
    return draining
  }

  function backOff(retryAfterSeconds: unknown): void {
    backOffMs = Math.min(timing.longestBackOffMs, Math.max(timing.everyMs, backOffMs * 2))
    const asked = typeof retryAfterSeconds === 'number' ? retryAfterSeconds * 1000 : 0
    quietUntil = options.nowMs() + Math.max(backOffMs, asked)
    if (!stopped) schedule(quietUntil - options.nowMs())
  }

  return {
    start() {
      if (started || stopped) return
      started = true
      schedule(timing.firstMs)
    },
    soon() {
      if (started && !stopped) schedule(timing.firstMs)
    },
    async presetRan(preset, profileId) {
      if (!started || held()) return
      const last = lastChecked.get(preset)
      if (last !== undefined && options.nowMs() - last < timing.sameRunGapMs) return
      if (!(await options.hasRules(preset).catch(() => false)) || held()) return
      enqueue(preset, profileId)
      await drain()
    },
    throttled(waitSeconds) {
      quietUntil = Math.max(quietUntil, options.nowMs() + waitSeconds * 1000)
    },
    async idle() {
      while (rounding !== null || draining !== null) await (rounding ?? draining)
    },
    async stop() {
      stopped = true
      if (timer !== null) timers.clear(timer)
      timer = null
      queue.length = 0
      abort.abort()
      await rounding?.catch(() => undefined)
      await draining?.catch(() => undefined)
    },
  }
}
