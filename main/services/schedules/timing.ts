/**
 * When a schedule runs: its cadence as a croner pattern, read in the schedule's timezone (an
 * IANA zone for the computer's, a fixed offset for the report's, which the platform gives in
 * whole hours), the next slot, the latest slot already past, and the cadence in words.
 */
import { Cron } from 'croner'
import type { Cadence, Weekday } from '@contract'
import { AppError } from '../errors'

/** Where a schedule's times are read: this computer's zone (undefined: the process's), or the report's fixed offset. */
export type ScheduleZone = { kind: 'computer'; timeZone?: string } | { kind: 'offset'; minutes: number }

const CRON_DAY: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 }
const DAY_WORD: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' }

/** The cadence as a five-field cron pattern (minute hour day-of-month month day-of-week). */
export function cronPatternOf(cadence: Cadence): string {
  if (cadence.kind === 'cron') return cadence.expression.trim().replace(/\s+/g, ' ')
  const [hour, minute] = cadence.at.split(':').map(Number)
  if (cadence.kind === 'daily') return `${minute} ${hour} * * *`
  if (cadence.kind === 'weekdays')
    return `${minute} ${hour} * * ${[...cadence.days]
      .map((day) => CRON_DAY[day])
      .sort((a, b) => a - b)
      .join(',')}`
  return `${minute} ${hour} ${cadence.day === 'last' ? 'L' : cadence.day} * *`
}

/**
 * A cron job that never runs by itself (croner's `paused`): we only ask it for dates. Throws a
 * validation error with a sentence for an expression croner refuses, or one with seconds (a
 * schedule runs at most once a minute, so an idle app never wakes more often).
 */
function cronOf(cadence: Cadence, zone: ScheduleZone): Cron {
  const pattern = cronPatternOf(cadence)
  if (cadence.kind === 'cron' && pattern.split(' ').length !== 5) {
    throw invalidCadence('Write the cron expression with five fields: minute hour day-of-month month day-of-week (for example "0 7 * * 1-5").')
  }
  const zoneOption = zone.kind === 'offset' ? { utcOffset: zone.minutes } : zone.timeZone === undefined ? {} : { timezone: zone.timeZone }
  try {
    return new Cron(pattern, { paused: true, ...zoneOption })
  } catch (error) {
    throw invalidCadence(`The cron expression "${pattern}" cannot be read (${(error as Error).message}). Check it, for example "0 7 * * 1-5".`)
  }
}

function invalidCadence(message: string): AppError {
  return new AppError('validation', message, { field: 'cadence', fields: { cadence: [message] } })
}

export const NEVER_FIRES = 'This cadence never comes due (for example the 30th of February). Change it, or the schedule will not run.'

/** The first slot strictly after `after`; null when the cadence never comes due again. */
export function nextSlot(cadence: Cadence, zone: ScheduleZone, after: Date): Date | null {
  return cronOf(cadence, zone).nextRun(after)
}

/** The latest slot at or before `at`; null when there was none in the last year or so (croner's search bound). */
export function latestSlot(cadence: Cadence, zone: ScheduleZone, at: Date): Date | null {
  const cron = cronOf(cadence, zone)
  // previousRuns looks strictly before its reference; a slot exactly now counts as come.
  if (cron.match(at) && at.getUTCSeconds() === 0 && at.getUTCMilliseconds() === 0) return at
  return cron.previousRuns(1, at)[0] ?? null
}

/** Checks a cadence can be read (throws a validation error with a sentence otherwise). */
export function checkCadence(cadence: Cadence, zone: ScheduleZone): void {
  cronOf(cadence, zone)
}

export function zoneText(zone: ScheduleZone): string {
  if (zone.kind === 'computer') return "computer's timezone"
  const hours = zone.minutes / 60
  return `report's timezone (UTC${hours >= 0 ? '+' : '−'}${Math.abs(hours)})`
}

/** The cadence in words, as the schedule list shows it. */
export function cadenceText(cadence: Cadence, zone: ScheduleZone): string {
  const where = zoneText(zone)
  switch (cadence.kind) {
    case 'daily':
      return `Every day at ${cadence.at}, ${where}`
    case 'weekdays':
      return `${cadence.days.map((day) => DAY_WORD[day]).join(', ')} at ${cadence.at}, ${where}`
    case 'monthly':
      return `${cadence.day === 'last' ? 'The last day' : `Day ${cadence.day}`} of each month at ${cadence.at}, ${where}`
    case 'cron':
      return `Cron "${cronPatternOf(cadence)}", ${where}`
  }
}
