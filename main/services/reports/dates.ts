import type { Comparison, ResolvedRange, TimezoneRule } from '@contract'
import { suggestGranularity, TIME_GRANULARITIES, type TimeGranularity } from '../../../common/granularity'
import { invalidField } from './errors'

/**
 * The date grammar of the Reporting API, resolved here so the builder can show the absolute
 * dates before anything is sent and every request carries absolute dates. Decisions match the
 * demo backend's (main/sandbox/reporting/dates.ts; a test checks both agree on a table):
 * - "today" is the current date at the request's whole-hour UTC offset;
 * - `-Nm` lands on the same day of the month, clamped to the end of a shorter month;
 * - the end date is inclusive.
 * Days are counted from 1970-01-01 (day 0).
 */

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

export function dayNumber(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / DAY_MS)
}

function calendar(day: number): { year: number; month: number; day: number } {
  const date = new Date(day * DAY_MS)
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

export function formatDay(day: number): string {
  const { year, month, day: date } = calendar(day)
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`
}

/** The current date at a whole-hour UTC offset. */
export function localToday(now: Date, offset: number): number {
  return Math.floor((now.getTime() + offset * HOUR_MS) / DAY_MS)
}

/** The month `count` months before (negative: after) the month of `day`. */
function monthShift(day: number, count: number): { year: number; month: number; day: number } {
  const current = calendar(day)
  const index = current.year * 12 + (current.month - 1) - count
  return { year: Math.floor(index / 12), month: (index % 12) + 1, day: current.day }
}

const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})$/
// The spec's spellings (-Nd, -Ndays, -Nm, -Nmonths, -Nm_first, -Nmonth_last…) plus the staging
// docs' -Nmonths_last and the singular forms the demo backend also reads.
const RELATIVE = /^-(\d{1,6})(d|day|days|m|month|months)(?:_(first|last))?$/
// Vendor only: the first day of the month holding today plus N days; N carries its sign.
const MONTH_OF_DAY = /^(-?)(\d{1,6})d_m_first$/

const GRAMMAR = 'YYYY-MM-DD, today, yesterday, -Nd, -Nm, -Nm_first, -Nm_last or -Nd_m_first'

/** The day a token stands for, or a sentence saying why it is not a date (without the field's name). */
export function resolveDateToken(token: string, today: number): number | { error: string } {
  const text = token.trim()
  const absolute = ABSOLUTE.exec(text)
  if (absolute) {
    const [year, month, day] = [Number(absolute[1]), Number(absolute[2]), Number(absolute[3])]
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { error: `"${text}" is not a calendar date.` }
    return dayNumber(year, month, day)
  }
  if (text === 'today') return today
  if (text === 'yesterday') return today - 1
  const monthOfDay = MONTH_OF_DAY.exec(text)
  if (monthOfDay) {
    const offset = Number(monthOfDay[2]) * (monthOfDay[1] === '-' ? -1 : 1)
    const { year, month } = calendar(today + offset)
    return dayNumber(year, month, 1)
  }
  const relative = RELATIVE.exec(text)
  if (!relative) return { error: `"${text}" is not a date: use ${GRAMMAR}.` }
  const count = Number(relative[1])
  const unit = relative[2] ?? 'd'
  const edge = relative[3]
  if (unit.startsWith('d')) {
    if (edge !== undefined) return { error: `"${text}": _first and _last apply to months (-Nm_first); for the month of a day use -Nd_m_first.` }
    return today - count
  }
  const target = monthShift(today, count)
  if (edge === 'first') return dayNumber(target.year, target.month, 1)
  const last = daysInMonth(target.year, target.month)
  if (edge === 'last') return dayNumber(target.year, target.month, last)
  return dayNumber(target.year, target.month, Math.min(target.day, last))
}

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

export function parseDay(text: string): number | null {
  const match = ABSOLUTE.exec(text)
  if (!match) return null
  return dayNumber(Number(match[1]), Number(match[2]), Number(match[3]))
}

/** The same calendar day a year earlier; 29 February becomes 28 February. */
function yearBefore(day: number): number {
  const { year, month, day: date } = calendar(day)
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
