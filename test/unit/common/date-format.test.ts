import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, formatTime } from '../../../common/date-format'

/** The one date format of the screens: the locale's medium date and short time, the locale passed in. */
const moment = '2026-12-07T10:45:11.000Z'
const utc = { timeZone: 'UTC' }

describe('the shared date format', () => {
  it('writes a moment in the locale it is given', () => {
    expect(formatDateTime(moment, { ...utc, locale: 'en-US' })).toBe('Dec 7, 2026, 10:45 AM')
    expect(formatDateTime(moment, { ...utc, locale: 'en-GB' })).toBe('7 Dec 2026, 10:45')
    expect(formatDateTime(moment, { ...utc, locale: 'de-DE' })).toBe('07.12.2026, 10:45')
  })

  it('writes a day and a time of day in the same style', () => {
    expect(formatDate(moment, { ...utc, locale: 'en-US' })).toBe('Dec 7, 2026')
    expect(formatTime(moment, { ...utc, locale: 'en-US' })).toBe('10:45 AM')
    expect(formatTime(new Date(moment), { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toBe('11:45')
  })

  it('says an unreadable moment is unknown instead of "Invalid Date"', () => {
    expect(formatDateTime('not a date', { locale: 'en-US' })).toBe('an unknown time')
  })
})
