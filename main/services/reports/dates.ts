import type { Comparison, ResolvedRange, TimezoneRule } from '@contract'
import { suggestGranularity, TIME_GRANULARITIES, type TimeGranularity } from '../../../common/granularity'
import { calendarOfDay, dayNumber, daysInMonth, formatDay, localToday, parseDay, resolveDateToken } from '../../../common/date-tokens'
import { invalidField } from './errors'

/**
 * Dates as main resolves them: the grammar itself is written once in common/date-tokens.ts (the
 * page names and previews ranges with it too); here are the request's offset, the checked pair
 * of tokens a run sends as absolute dates, and the comparison period.
 */
export { dayNumber, formatDay, localToday, parseDay, resolveDateToken }

/* ---------- the offset a request is sent with ---------- */

export interface OffsetContext {
  /** The report's own offset from `info` (null: unknown, taken as UTC). */
  reportTimezone: number | null
  /** Whether the report accepts a `timezone` in requests; when it does not, its own offset applies. */
  supportsTimezone: boolean
  /** This computer's current offset from UTC in minutes (east positive), e.g. 330 for India. */
  osOffsetMinutes: number
}

export interface ChosenOffset {
  offset: number
  notes: string[]
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '−' : '+'
  const absolute = Math.abs(minutes)
  const hours = Math.floor(absolute / 60)
  const rest = absolute % 60
  return `UTC${sign}${hours}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`
}

/**
 * The whole-hour offset a rule stands for now. The platform takes whole hours from −12 to +12
 * only, so the computer's offset is rounded toward zero (India's +5:30 becomes +5) and
 * clamped (+13, +14 become +12), and the notes say so.
 */
export function chooseOffset(rule: TimezoneRule, context: OffsetContext): ChosenOffset {
  const reportOffset = context.reportTimezone ?? 0
  const notes: string[] = []
  let wanted: number
  if (rule.mode === 'report') wanted = reportOffset
  else if (rule.mode === 'fixed') wanted = rule.offset
  else {
    const minutes = context.osOffsetMinutes
    const whole = Math.trunc(minutes / 60)
    wanted = Math.max(-12, Math.min(12, whole))
    if (wanted * 60 !== minutes) {
      notes.push(
        `This computer's offset is ${formatOffset(minutes)}; the platform takes whole hours from −12 to +12 only, so ${formatOffset(wanted * 60)} is used.`,
      )
    }
  }
  if (!context.supportsTimezone && wanted !== reportOffset) {
    notes.push(`This report does not let the timezone change; its own ${formatOffset(reportOffset * 60)} is used.`)
    wanted = reportOffset
  }
  return { offset: wanted, notes }
}

/* ---------- ranges ---------- */

export interface DayRange {
  start: number
  end: number
}

export function presentRange(range: DayRange, offset: number, notes: string[] = []): ResolvedRange {
  return {
    start: formatDay(range.start),
    end: formatDay(range.end),
    timezone: offset,
    days: range.end - range.start + 1,
    ...(notes.length > 0 ? { notes } : {}),
  }
}

/** Both tokens as days at the offset; errors name the field (`details.part`: start or end). */
export function resolveTokens(start: string, end: string, offset: number, now: Date): DayRange {
  const today = localToday(now, offset)
  const first = resolveDateToken(start, today)
  if (typeof first !== 'number') throw invalidField('dates', `Start date: ${first.error}`, { part: 'start' })
  const last = resolveDateToken(end, today)
  if (typeof last !== 'number') throw invalidField('dates', `End date: ${last.error}`, { part: 'end' })
  if (first > last) {
    throw invalidField('dates', `The start date (${formatDay(first)}) is after the end date (${formatDay(last)}); swap them or pick another range.`, {
      part: 'start',
    })
  }
  return { start: first, end: last }
}

/** The day range as absolute `YYYY-MM-DD` strings, as requests carry them. */
export function absoluteDates(range: DayRange): { start_date: string; end_date: string } {
  return { start_date: formatDay(range.start), end_date: formatDay(range.end) }
}

/** The same calendar day a year earlier; 29 February becomes 28 February. */
function yearBefore(day: number): number {
  const { year, month, day: date } = calendarOfDay(day)
  return dayNumber(year - 1, month, Math.min(date, daysInMonth(year - 1, month)))
}

/**
 * The period a range is compared with: the same number of days right before it, or the same
 * dates a year earlier (29 February clamped to the 28th).
 */
export function comparisonRange(range: DayRange, comparison: Exclude<Comparison, 'none'>): DayRange {
  if (comparison === 'previous_period') {
    const length = range.end - range.start + 1
    return { start: range.start - length, end: range.start - 1 }
  }
  return { start: yearBefore(range.start), end: yearBefore(range.end) }
}

/* ---------- granularity ---------- */

// One list and one `auto` rule for main and the renderer (common/granularity).
export { suggestGranularity, TIME_GRANULARITIES, type TimeGranularity }
