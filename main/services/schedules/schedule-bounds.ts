/**
 * How many schedules may be kept and how often they may run together, checked as a schedule is
 * saved: each run asks the platform for a report (an export, an alert check), and a compromised
 * page could otherwise save hundreds of every-minute schedules within the contract's own limits.
 *
 * The combined rate is the sum of each switched-on schedule's busiest hour: a daily, weekday or
 * monthly cadence runs at most once in any hour, a cron expression at most as many times as the
 * minutes its minute field names (an hour it fires in fires at each of them, and no 60 minutes
 * hold a minute of the hour twice). The sum is an upper bound: two schedules busy in different
 * hours count as if busy in the same one.
 */
import type { Cadence } from '@contract'
import { AppError } from '../errors'
import type { DocumentStore } from '../files/document-store'
import type { SchedulesDocument, StoredSchedule } from './schedule-store'

export const SCHEDULE_BOUNDS = {
  /** Schedules kept at once (the schedules file reads up to the contract's larger bound, so older lists stay readable). */
  schedules: 100,
  /** Runs in any one hour, all switched-on schedules together: two every-minute schedules, or one every 5 minutes and a hundred daily ones. */
  runsPerHour: 120,
} as const

/** The minutes of an hour a cron minute field names: `*`, `N`, `N-M`, each with an optional `/step`, comma-separated; anything else counts as every minute. */
export function minutesNamed(field: string): number {
  const minutes = new Set<number>()
  for (const part of field.split(',')) {
    const match = /^(\*|\?|(\d{1,2})(?:-(\d{1,2}))?)(?:\/(\d{1,2}))?$/.exec(part.trim())
    if (match === null) return 60
    const [, whole, first, last, step] = match
    const start = whole === '*' || whole === '?' ? 0 : Number(first)
    // `N/step` runs from N to the end of the hour, as in croner; `N` alone is that minute.
    const end = whole === '*' || whole === '?' || step !== undefined ? (last === undefined ? 59 : Number(last)) : Number(last ?? first)
    const stride = step === undefined ? 1 : Number(step)
    if (stride < 1 || start > 59 || end > 59) return 60
    for (let minute = start; minute <= end; minute += stride) minutes.add(minute)
  }
  return minutes.size
}

/** The most runs one cadence makes in any one hour. */
export function busiestHour(cadence: Cadence): number {
  if (cadence.kind !== 'cron') return 1
  return minutesNamed(cadence.expression.trim().split(/\s+/)[0] ?? '*')
}

/** The most runs the switched-on schedules make together in any one hour (an upper bound). */
export function combinedRunsPerHour(schedules: readonly StoredSchedule[]): number {
  return schedules.reduce((sum, schedule) => sum + (schedule.enabled ? busiestHour(schedule.cadence) : 0), 0)
}

function refused(field: string, message: string): AppError {
  return new AppError('validation', message, { field, fields: { [field]: [message] } })
}

/**
 * Throws a sentence when `after` (the list with the schedule saved) adds a schedule past the
 * bound, or raises the combined rate past its bound. A list already past a bound (saved before
 * the bounds) may still be edited down: only a save that makes it worse is refused.
 */
export function checkScheduleBounds(before: readonly StoredSchedule[], after: readonly StoredSchedule[]): void {
  if (after.length > before.length && after.length > SCHEDULE_BOUNDS.schedules)
    throw refused(
      'name',
      `There are ${before.length} schedules already, and AdOps Desk keeps at most ${SCHEDULE_BOUNDS.schedules}. Delete one you no longer need before adding another.`,
    )
  const rate = combinedRunsPerHour(after)
  if (rate > SCHEDULE_BOUNDS.runsPerHour && rate > combinedRunsPerHour(before))
    throw refused(
      'cadence',
      `With this schedule, your schedules could run ${rate} times in one hour, and AdOps Desk allows at most ${SCHEDULE_BOUNDS.runsPerHour} an hour across all of them (each run asks the platform for a report). Make this one run less often (for example every 15 minutes, or hourly), or switch off a frequent schedule first.`,
    )
}

/** The schedules store with the bounds checked inside each change, so two saves at once cannot both pass. */
export function withScheduleBounds(store: DocumentStore<SchedulesDocument>): DocumentStore<SchedulesDocument> {
  return {
    ...store,
    update: (change) =>
      store.update(async (current) => {
        const next = await change(current)
        checkScheduleBounds(current.schedules, next.schedules)
        return next
      }),
  }
}
