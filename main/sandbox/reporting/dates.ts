/**
 * Dates and time buckets of the Reporting API. Days are counted from 1970-01-01 and hours
 * from 1970-01-01T00:00; "local" means shifted by the request's whole-hour time zone.
 */

export type Granularity = 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year'
export const TIME_GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'week', 'month', 'quarter', 'year']

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const MONTH_SHORT = MONTH_NAMES.map((name) => name.slice(0, 3))
const WEEKDAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

export interface CalendarDate {
  year: number
  month: number
  day: number
}

export function dayNumber(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / 86_400_000)
}

export function calendarDate(day: number): CalendarDate {
  const date = new Date(day * 86_400_000)
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0')
}

export function formatDay(day: number): string {
  const date = calendarDate(day)
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** The month `count` months before the given one, as (year, month). */
function monthsBack(date: CalendarDate, count: number): { year: number; month: number } {
  const index = date.year * 12 + (date.month - 1) - count
  return { year: Math.floor(index / 12), month: (index % 12) + 1 }
}

const RELATIVE = /^-(\d{1,6})(d|day|days|m|month|months)(?:_(first|last))?$/
/** The vendor's `-Nd_m_first`: the first day of the month holding (today - N days); N may also be positive (`30d_m_first`). */
const DAY_MONTH_FIRST = /^(-?)(\d{1,6})d_m_first$/

/**
 * Parses one `start_date`/`end_date` value into a day number, with `today` the current local day.
 * Returns an error sentence (without the parameter name) when the value is not in the grammar.
 */
export function parseDateExpression(text: string, today: number): number | { error: string } {
  const absolute = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (absolute) {
    const year = Number(absolute[1])
    const month = Number(absolute[2])
    const day = Number(absolute[3])
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { error: `'${text}' is not a calendar date` }
    return dayNumber(year, month, day)
  }
  if (text === 'today') return today
  if (text === 'yesterday') return today - 1
  const dayMonthFirst = DAY_MONTH_FIRST.exec(text)
  if (dayMonthFirst) {
    const shifted = calendarDate(today + (dayMonthFirst[1] === '-' ? -1 : 1) * Number(dayMonthFirst[2]))
    return dayNumber(shifted.year, shifted.month, 1)
  }
  const relative = RELATIVE.exec(text)
  if (!relative) {
    return { error: `'${text}' is not a date; use YYYY-MM-DD, today, yesterday, -Nd, -Nm, -Nm_first, -Nm_last or -Nd_m_first` }
  }
  const count = Number(relative[1])
  const unit = relative[2] ?? 'd'
  const edge = relative[3]
  if (unit.startsWith('d')) {
    if (edge !== undefined) return { error: `'${text}': _first and _last apply to months only` }
    return today - count
  }
  const current = calendarDate(today)
  const target = monthsBack(current, count)
  if (edge === 'first') return dayNumber(target.year, target.month, 1)
  if (edge === 'last') return dayNumber(target.year, target.month, daysInMonth(target.year, target.month))
  return dayNumber(target.year, target.month, Math.min(current.day, daysInMonth(target.year, target.month)))
}

/** The current local day at the given UTC offset. */
export function localToday(now: Date, timezone: number): number {
  return Math.floor((now.getTime() / 3_600_000 + timezone) / 24)
}

/** Bucket id of a local hour: comparable integers, consecutive for consecutive buckets. */
export function bucketOfLocalHour(granularity: Granularity, localHour: number): number {
  if (granularity === 'hour') return localHour
  const day = Math.floor(localHour / 24)
  if (granularity === 'day') return day
  // Weeks start on Monday; day -3 (1969-12-29) was a Monday.
  if (granularity === 'week') return Math.floor((day + 3) / 7)
  const date = calendarDate(day)
  if (granularity === 'month') return date.year * 12 + date.month - 1
  if (granularity === 'quarter') return date.year * 4 + Math.floor((date.month - 1) / 3)
  return date.year
}

/** First local day of a bucket (hour buckets: their day). */
export function bucketFirstDay(granularity: Granularity, bucket: number): number {
  switch (granularity) {
    case 'hour':
      return Math.floor(bucket / 24)
    case 'day':
      return bucket
    case 'week':
      return bucket * 7 - 3
    case 'month':
      return dayNumber(Math.floor(bucket / 12), (bucket % 12) + 1, 1)
    case 'quarter':
      return dayNumber(Math.floor(bucket / 4), (bucket % 4) * 3 + 1, 1)
    case 'year':
      return dayNumber(bucket, 1, 1)
  }
}

/** ISO 8601 week-numbering year and week of a Monday-based week bucket. */
function isoWeek(bucket: number): { year: number; week: number } {
  const thursday = bucket * 7
  const date = calendarDate(thursday)
  const dayOfYear = thursday - dayNumber(date.year, 1, 1) + 1
  return { year: date.year, week: Math.floor((dayOfYear - 1) / 7) + 1 }
}

/** `__time__` text, exactly as the spec's table. */
export function formatBucket(granularity: Granularity, bucket: number): string {
  switch (granularity) {
    case 'hour':
      return `${formatDay(Math.floor(bucket / 24))} ${pad(((bucket % 24) + 24) % 24)}:00`
    case 'day':
      return formatDay(bucket)
    case 'week': {
      const week = isoWeek(bucket)
      return `${pad(week.year, 4)}-W${pad(week.week)}`
    }
    case 'month':
      return `${pad(Math.floor(bucket / 12), 4)}-${pad((bucket % 12) + 1)}`
    case 'quarter':
      return `${pad(Math.floor(bucket / 4), 4)} Q${(bucket % 4) + 1}`
    case 'year':
      return pad(bucket, 4)
  }
}

function longDay(day: number): string {
  const date = calendarDate(day)
  const weekday = WEEKDAY_SHORT[(((day + 4) % 7) + 7) % 7] ?? ''
  return `${weekday}, ${pad(date.day)} ${MONTH_SHORT[date.month - 1] ?? ''} ${date.year}`
}

/** `__mapping__` of a time bucket: the human label a chart axis shows. */
export function bucketMapping(granularity: Granularity, bucket: number): string {
  switch (granularity) {
    case 'hour':
      return `${longDay(Math.floor(bucket / 24))} ${pad(((bucket % 24) + 24) % 24)}:00`
    case 'day':
      return longDay(bucket)
    case 'week': {
      const monday = bucket * 7 - 3
      return `Week ${isoWeek(bucket).week}: ${longDay(monday)} – ${longDay(monday + 6)}`
    }
    case 'month':
      return `${MONTH_NAMES[bucket % 12] ?? ''} ${Math.floor(bucket / 12)}`
    case 'quarter': {
      const first = (bucket % 4) * 3
      return `Q${(bucket % 4) + 1} ${Math.floor(bucket / 4)} (${MONTH_SHORT[first] ?? ''} – ${MONTH_SHORT[first + 2] ?? ''})`
    }
    case 'year':
      return String(bucket)
  }
}
