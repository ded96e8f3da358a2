import { describe, expect, it } from 'vitest'
import {
  DATE_PRESETS,
  dayTimestamp,
  dayToken,
  formatOffset,
  formatRange,
  presetOf,
  presetTokens,
  suggestGranularity,
  timeGranularityOf,
} from '../../../../renderer/src/domain/reports/dates'

describe('date presets', () => {
  it('are stored as the API’s relative tokens', () => {
    const tokens = Object.fromEntries(DATE_PRESETS.map((preset) => [preset.label, `${preset.tokens.start}…${preset.tokens.end}`]))
    expect(tokens).toEqual({
      Yesterday: 'yesterday…yesterday',
      'Last 7 days': '-7d…-1d',
      'Last 30 days': '-30d…-1d',
      'This month to date': '-0m_first…today',
      'Last month': '-1m_first…-1m_last',
      'Month of yesterday': '-1d_m_first…yesterday',
      'Last 3 full months': '-3m_first…-1m_last',
    })
  })

  it('are recognised from tokens, and anything else is a custom range', () => {
    expect(presetOf({ start: '-30d', end: '-1d' })?.id).toBe('last-30-days')
    expect(presetOf({ start: ' -1m_first', end: '-1m_last ' })?.label).toBe('Last month')
    expect(presetOf({ start: '-30days', end: '-1d' })).toBeNull()
    expect(presetOf({ start: '2026-01-01', end: '2026-01-31' })).toBeNull()
    expect(presetTokens('month-of-yesterday')).toEqual({ start: '-1d_m_first', end: 'yesterday' })
    expect(presetTokens('nope')).toBeNull()
  })

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
