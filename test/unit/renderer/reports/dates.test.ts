import { describe, expect, it } from 'vitest'
import { dayTimestamp, dayToken, formatOffset, formatRange, suggestGranularity, timeGranularityOf } from '../../../../renderer/src/domain/reports/dates'

describe('dates in the builder', () => {
  it('turns calendar picks into absolute tokens and back, on the local calendar', () => {
    const timestamp = new Date(2024, 1, 29).getTime()
    expect(dayToken(timestamp)).toBe('2024-02-29')
    expect(dayTimestamp('2024-02-29')).toBe(timestamp)
    expect(dayTimestamp('-7d')).toBeNull()
    expect(dayTimestamp(null)).toBeNull()
  })

  it('suggests hours, days, weeks or months from the range', () => {
    expect([1, 3, 4, 90, 91, 366, 367].map(suggestGranularity)).toEqual(['hour', 'hour', 'day', 'day', 'week', 'week', 'month'])
    expect(timeGranularityOf('granularity_week')).toBe('week')
    expect(timeGranularityOf('country')).toBeNull()
  })

  it('shows the resolved range with its timezone', () => {
    expect(formatOffset(0)).toBe('UTC')
    expect(formatOffset(-3)).toBe('UTC−3')
    expect(formatRange({ start: '2026-01-01', end: '2026-01-30', days: 30, timezone: 1 })).toBe('2026-01-01 → 2026-01-30 · 30 days · UTC+1')
    expect(formatRange({ start: '2026-01-01', end: '2026-01-01', days: 1, timezone: 0 })).toBe('2026-01-01 · 1 day · UTC')
  })
})
