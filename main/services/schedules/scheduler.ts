/**
 * Which schedules are due, and the app's one timer.
 *
 * A schedule is due when its latest slot has come and no run has handled it yet (the ledger's
 * latest planned time for it), and the slot is not older than the schedule itself. Only the
 * latest slot counts: a week of missed slots (the machine was off) is one run, marked late.
 *
 * While the app runs, ONE timer waits for the next slot of any schedule, capped so a clock
 * change or a missed wake is noticed within the cap; it is re-armed after every check, on every
 * save or delete, and on wake. Slots are whole minutes (cron with seconds is refused), so an idle
 * app never wakes more often than once a minute.
 */
import type { LedgerEntry } from '@contract'
import { latestSlot, nextSlot, type ScheduleZone } from './timing'
import type { StoredSchedule } from './schedule-store'

/** A run this long after its slot is late (the OS entry may start up to 5 minutes after a slot by design). */
export const LATE_AFTER_MS = 10 * 60 * 1000
/** The longest the timer waits before looking again, whatever the next slot. */
export const TIMER_CAP_MS = 60 * 60 * 1000

export interface DueRun {
  schedule: StoredSchedule
  slot: Date
  late: boolean
}

export function zoneOf(schedule: StoredSchedule, computerTimeZone: string | undefined): ScheduleZone {
  return schedule.timezone === 'report'
    ? { kind: 'offset', minutes: schedule.reportOffsetMinutes ?? 0 }
    : computerTimeZone === undefined
      ? { kind: 'computer' }
      : { kind: 'computer', timeZone: computerTimeZone }
}

/** The latest slot each schedule's runs were planned for, from the ledger. */
export function lastPlannedBySchedule(entries: readonly LedgerEntry[]): Map<string, number> {
  const last = new Map<string, number>()
  for (const entry of entries) {
    if (entry.trigger !== 'schedule' || entry.plannedAt === null) continue
    const planned = Date.parse(entry.plannedAt)
    if (planned > (last.get(entry.scheduleId) ?? -Infinity)) last.set(entry.scheduleId, planned)
  }
  return last
}

/** The schedule's slot that is due now, or null. A cadence croner cannot read is never due (the list says why). */
export function dueSlot(schedule: StoredSchedule, now: Date, lastPlanned: number | undefined, computerTimeZone?: string): Date | null {
  if (!schedule.enabled) return null
  let slot: Date | null
  try {
    slot = latestSlot(schedule.cadence, zoneOf(schedule, computerTimeZone), now)
  } catch {
    return null
  }
  if (slot === null || slot.getTime() < Date.parse(schedule.activeSince)) return null
  if (lastPlanned !== undefined && slot.getTime() <= lastPlanned) return null
  return slot
}

export function dueRuns(schedules: readonly StoredSchedule[], now: Date, lastPlanned: Map<string, number>, computerTimeZone?: string): DueRun[] {
  return schedules.flatMap((schedule) => {
    const slot = dueSlot(schedule, now, lastPlanned.get(schedule.id), computerTimeZone)
    return slot === null ? [] : [{ schedule, slot, late: now.getTime() - slot.getTime() > LATE_AFTER_MS }]
  })
}

/** The next slot of a schedule after `now`; null when off or when it never fires. */
export function nextRunOf(schedule: StoredSchedule, now: Date, computerTimeZone?: string): Date | null {
  if (!schedule.enabled) return null
  try {
    return nextSlot(schedule.cadence, zoneOf(schedule, computerTimeZone), now)
  } catch {
    return null
  }
}

/** Time through the host (timers in the app, a fake clock in tests and the bench). */
export interface SchedulerClock {
  now(): Date
  setTimer(delayMs: number, callback: () => void): unknown
  clearTimer(handle: unknown): void
}

export interface SchedulerLoopOptions {
  clock: SchedulerClock
  /** Starts the due runs not already running (without waiting for them) and says when the next slot is; called on every timer, wake and change. */
  check(): Promise<{ nextAt: Date | null }>
  /** A check failed (a schedules file that cannot be read): logged, and the timer still re-armed. */
  onError(error: unknown): void
  capMs?: number
}

export interface SchedulerLoop {
  /** Looks now (start, wake, a save or delete, a run that ended) and re-arms. */
  poke(): Promise<void>
  /** The check going on now, if any. */
  settled(): Promise<void>
  stop(): void
}

export function createSchedulerLoop(options: SchedulerLoopOptions): SchedulerLoop {
  const { clock } = options
  const cap = options.capMs ?? TIMER_CAP_MS
  let timer: unknown = null
  let stopped = false
  // One check at a time; a poke during one makes one more afterwards, not one per poke.
  let checking: Promise<void> | null = null
  let again = false

  function arm(nextAt: Date | null): void {
    if (timer !== null) clock.clearTimer(timer)
    timer = null
    if (stopped) return
    const wait = nextAt === null ? cap : Math.min(cap, Math.max(0, nextAt.getTime() - clock.now().getTime()))
    timer = clock.setTimer(wait, () => {
      timer = null
      void poke()
    })
  }

  async function once(): Promise<void> {
    let nextAt: Date | null = null
    try {
      nextAt = (await options.check()).nextAt
    } catch (error) {
      options.onError(error)
    }
    arm(nextAt)
  }

  function poke(): Promise<void> {
    if (stopped) return Promise.resolve()
    if (checking !== null) {
      again = true
      return checking
    }
    checking = (async () => {
      do {
        again = false
        await once()
      } while (again && !stopped)
      checking = null
    })()
    return checking
  }

  return {
    poke,
    settled: () => checking ?? Promise.resolve(),
    stop() {
      stopped = true
      if (timer !== null) clock.clearTimer(timer)
      timer = null
    },
  }
}
