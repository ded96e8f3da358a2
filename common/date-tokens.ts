/**
 * The date grammar of the Reporting API, written once: main resolves a definition's tokens with
 * it before anything is sent, and the page names and previews ranges with it (the date range
 * control). The demo backend keeps its own copy (main/sandbox/reporting/dates.ts; a test checks
 * both agree on a table). Decisions:
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

export function calendarOfDay(day: number): { year: number; month: number; day: number } {
  const date = new Date(day * DAY_MS)
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

export function formatDay(day: number): string {
  const { year, month, day: date } = calendarOfDay(day)
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`
}

/** The current date at a whole-hour UTC offset. */
export function localToday(now: Date, offset: number): number {
  return Math.floor((now.getTime() + offset * HOUR_MS) / DAY_MS)
}

/** The month `count` months before (negative: after) the month of `day`. */
function monthShift(day: number, count: number): { year: number; month: number; day: number } {
  const current = calendarOfDay(day)
  const index = current.year * 12 + (current.month - 1) - count
  return { year: Math.floor(index / 12), month: (index % 12) + 1, day: current.day }
}

const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})$/
// The spec's spellings (-Nd, -Ndays, -Nm, -Nmonths, -Nm_first, -Nmonth_last…) plus the staging
// docs' -Nmonths_last and the singular forms the demo backend also reads.
const RELATIVE = /^-(\d{1,6})(d|day|days|m|month|months)(?:_(first|last))?$/
// Vendor only: the first day of the month holding today plus N days; N carries its sign.
const MONTH_OF_DAY = /^(-?)(\d{1,6})d_m_first$/

export const DATE_GRAMMAR = 'YYYY-MM-DD, today, yesterday, -Nd, -Nm, -Nm_first, -Nm_last or -Nd_m_first'

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
    const { year, month } = calendarOfDay(today + offset)
    return dayNumber(year, month, 1)
  }
  const relative = RELATIVE.exec(text)
  if (!relative) return { error: `"${text}" is not a date: use ${DATE_GRAMMAR}.` }
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

/**
 * One spelling per meaning, for comparing tokens: `yesterday` is `-1d`, `today` `-0d`, `-14days`
 * `-14d`, `-1months_last` `-1m_last`. Text that is no token comes back trimmed.
 */
export function canonicalDateToken(token: string): string {
  const text = token.trim()
  if (text === 'today') return '-0d'
  if (text === 'yesterday') return '-1d'
  const relative = RELATIVE.exec(text)
  if (!relative) return text
  const unit = (relative[2] ?? 'd').startsWith('d') ? 'd' : 'm'
  return `-${Number(relative[1])}${unit}${relative[3] === undefined ? '' : `_${relative[3]}`}`
}

/** The day of an absolute `YYYY-MM-DD`, or null for any other text. */
export function parseDay(text: string): number | null {
  const match = ABSOLUTE.exec(text)
  if (!match) return null
  return dayNumber(Number(match[1]), Number(match[2]), Number(match[3]))
}
