/**
 * A schedule's cadence as the editor shows it while the user types: in words, and for a cron
 * expression its next runs or the sentence that says what is wrong. Main says the same of a
 * saved schedule (`cadenceText`, `nextRunAt`, `problem`); this is the live preview before Save.
 * croner reads the expression, the same parser main runs, so the preview and the scheduler agree.
 */
import { Cron } from 'croner'
import { weekdays, type Cadence, type ScheduleTimezone, type Weekday } from '@contract'

const DAY_NAMES: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' }
const WORK_WEEK: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri']

export const dayLabel = (day: Weekday): string => DAY_NAMES[day]

function ordinal(day: number): string {
  const tens = day % 100
  if (tens >= 11 && tens <= 13) return `${day}th`
  return `${day}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th'}`
}

/** The days in week order, with the working week and the whole week said as such. */
function daysInWords(days: readonly Weekday[]): string {
  const sorted = weekdays.filter((day) => days.includes(day))
  if (sorted.length === 7) return 'Every day'
  if (sorted.length === 5 && WORK_WEEK.every((day) => sorted.includes(day))) return 'Monday to Friday'
  if (sorted.length === 2 && sorted.includes('sat') && sorted.includes('sun')) return 'Weekends'
  return sorted.map(dayLabel).join(', ')
}

export function timezoneInWords(timezone: ScheduleTimezone): string {
  return timezone === 'report' ? "report's timezone" : "this computer's timezone"
}

/** "Monday to Friday at 07:30, report's timezone". */
export function cadenceInWords(cadence: Cadence, timezone: ScheduleTimezone): string {
  const where = timezoneInWords(timezone)
  switch (cadence.kind) {
    case 'daily':
      return `Every day at ${cadence.at}, ${where}`
    case 'weekdays':
      return `${daysInWords(cadence.days)} at ${cadence.at}, ${where}`
    case 'monthly':
      return `${cadence.day === 'last' ? 'The last day' : `The ${ordinal(cadence.day)}`} of every month at ${cadence.at}, ${where}`
    case 'cron':
      return `Cron "${cadence.expression.trim()}", ${where}`
  }
}

export type CronPreview = { ok: true; runs: Date[] } | { ok: false; error: string }

/**
 * The next `count` runs of a cron expression after `from`, or why there are none. `utcOffsetMinutes`
 * is the report's whole-hour offset when the schedule runs in the report's timezone; undefined
 * runs it in this computer's.
 */
export function previewCron(expression: string, from: Date, count = 3, utcOffsetMinutes?: number): CronPreview {
  const trimmed = expression.trim()
  if (trimmed === '') return { ok: false, error: 'Type a cron expression, for example "30 7 * * 1-5" (07:30 on weekdays).' }
  let runs: Date[]
  try {
    const cron = new Cron(trimmed, { paused: true, ...(utcOffsetMinutes === undefined ? {} : { utcOffset: utcOffsetMinutes }) })
    runs = cron.nextRuns(count, from)
  } catch (failure) {
    const reason = failure instanceof Error ? failure.message.replace(/^CronPattern:\s*/, '') : String(failure)
    return { ok: false, error: `This cron expression cannot be read (${reason}). Use five fields: minute hour day-of-month month day-of-week.` }
  }
  if (runs.length === 0) return { ok: false, error: 'This cron expression never fires (no date matches it). Check the day and month fields.' }
  return { ok: true, runs }
}
