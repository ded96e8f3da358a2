/**
 * Dates and times as every screen and notification shows them: one format, the system locale's
 * (Intl's medium date, short time), so "Dec 7, 2026, 10:45 AM" in en-US and "7 déc. 2026, 10:45"
 * in fr-FR alike, never a hand-built "2026-12-07 10:45" beside it. Files keep ISO. `locale` and
 * `timeZone` are for tests; absent, the system's. Formatters are made once per locale and zone:
 * each costs 5 to 11 ms to make (common/lazy.ts) and a list of runs formats hundreds.
 */

export interface DateFormatPlace {
  locale?: string
  timeZone?: string
}

type Style = 'dateTime' | 'date' | 'time' | 'dayMonth' | 'dayMonthYear'
const STYLES: Record<Style, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  dayMonth: { day: 'numeric', month: 'short' },
  dayMonthYear: { day: 'numeric', month: 'short', year: 'numeric' },
}
const made = new Map<string, Intl.DateTimeFormat>()

function formatterOf(style: Style, place: DateFormatPlace): Intl.DateTimeFormat {
  const key = `${style}|${place.locale ?? ''}|${place.timeZone ?? ''}`
  let format = made.get(key)
  if (format === undefined) {
    format = new Intl.DateTimeFormat(place.locale, { ...STYLES[style], ...(place.timeZone === undefined ? {} : { timeZone: place.timeZone }) })
    made.set(key, format)
  }
  return format
}

function shown(style: Style, moment: string | Date, place: DateFormatPlace): string {
  const date = typeof moment === 'string' ? new Date(moment) : moment
  return Number.isNaN(date.getTime()) ? 'an unknown time' : formatterOf(style, place).format(date)
}

/** "Dec 7, 2026, 10:45 AM": a moment (an ISO string or a Date). */
export const formatDateTime = (moment: string | Date, place: DateFormatPlace = {}): string => shown('dateTime', moment, place)
/** "Dec 7, 2026": a day. */
export const formatDate = (moment: string | Date, place: DateFormatPlace = {}): string => shown('date', moment, place)
/** "10:45 AM": a time of day. */
export const formatTime = (moment: string | Date, place: DateFormatPlace = {}): string => shown('time', moment, place)

/**
 * "23 Nov – 6 Dec" (en-GB), "Nov 23 – Dec 6" (en-US): a span of calendar days, `from` and `to`
 * taken as UTC days (the date range control's days are UTC day numbers), with the year only
 * when `withYear`; one day alone when they are the same.
 */
export function formatDaySpan(from: Date, to: Date, withYear: boolean, place: Pick<DateFormatPlace, 'locale'> = {}): string {
  const format = formatterOf(withYear ? 'dayMonthYear' : 'dayMonth', { ...place, timeZone: 'UTC' })
  return from.getTime() === to.getTime() ? format.format(from) : format.formatRange(from, to)
}
