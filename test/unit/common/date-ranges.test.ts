import { describe, expect, it } from 'vitest'
import {
  DATE_RANGE_PRESETS,
  dateRangeName,
  datePresetOf,
  describeDateRange,
  formatDayRange,
  readDateRangeText,
  resolveDateRange,
} from '../../../common/date-ranges'
import { dayNumber, formatDay } from '../../../common/date-tokens'

/** 7 December 2026, a Monday: the day the newcomer's walk was made. */
const today = dayNumber(2026, 12, 7)
const days = (range: ReturnType<typeof resolveDateRange>): string => ('error' in range ? range.error : `${formatDay(range.start)}…${formatDay(range.end)}`)

describe('a range of tokens is named by what it means', () => {
  it('names the pasted -14d to yesterday "Last 14 days", in any spelling', () => {
    expect(dateRangeName({ start: '-14d', end: 'yesterday' })).toBe('Last 14 days')
    expect(dateRangeName({ start: '-14days', end: '-1d' })).toBe('Last 14 days')
    expect(datePresetOf({ start: ' -30d', end: '-1days ' })?.id).toBe('last-30-days')
    expect(datePresetOf({ start: '-1months_first', end: '-1m_last' })?.label).toBe('Last month')
    expect(dateRangeName({ start: 'today', end: '-0d' })).toBe('Today')
  })

  it('names any number of days back to yesterday, and anything else a custom range', () => {
    expect(dateRangeName({ start: '-45d', end: '-1d' })).toBe('Last 45 days')
    expect(dateRangeName({ start: '-10d', end: '-3d' })).toBe('Custom range')
    expect(dateRangeName({ start: '2026-11-01', end: '2026-11-30' })).toBe('Custom range')
  })

  it('keeps the tokens saved presets and boards already hold', () => {
    const tokens = Object.fromEntries(DATE_RANGE_PRESETS.map((preset) => [preset.id, `${preset.tokens.start}…${preset.tokens.end}`]))
    expect(tokens).toMatchObject({
      yesterday: 'yesterday…yesterday',
      'last-7-days': '-7d…-1d',
      'last-30-days': '-30d…-1d',
      'month-to-date': '-0m_first…today',
      'last-month': '-1m_first…-1m_last',
      'month-of-yesterday': '-1d_m_first…yesterday',
      'last-3-months': '-3m_first…-1m_last',
    })
  })
})

describe('each preset resolves to its days', () => {
  it.each([
    ['today', '2026-12-07…2026-12-07'],
    ['yesterday', '2026-12-06…2026-12-06'],
    ['last-7-days', '2026-11-30…2026-12-06'],
    ['last-14-days', '2026-11-23…2026-12-06'],
    ['last-30-days', '2026-11-07…2026-12-06'],
    ['month-to-date', '2026-12-01…2026-12-07'],
    ['month-of-yesterday', '2026-12-01…2026-12-06'],
    ['last-month', '2026-11-01…2026-11-30'],
    ['last-3-months', '2026-09-01…2026-11-30'],
  ])('%s is %s', (id, expected) => {
    const preset = DATE_RANGE_PRESETS.find((candidate) => candidate.id === id)
    expect(preset && days(resolveDateRange(preset.tokens, today))).toBe(expected)
  })

  // Intl puts thin spaces (U+2009) around the en dash of a range.
  it('is described with its days in the locale', () => {
    expect(describeDateRange({ start: '-14d', end: '-1d' }, today, 'en-GB')).toBe('Last 14 days · 23 Nov\u2009–\u20096 Dec')
    expect(describeDateRange({ start: '-14d', end: '-1d' }, today, 'en-US')).toBe('Last 14 days · Nov 23\u2009–\u2009Dec 6')
    expect(describeDateRange({ start: 'yesterday', end: 'yesterday' }, today, 'en-GB')).toBe('Yesterday · 6 Dec')
    expect(formatDayRange(dayNumber(2025, 12, 20), dayNumber(2026, 1, 3), today, 'en-GB')).toBe('20 Dec 2025\u2009–\u20093 Jan 2026')
  })
})

describe('text typed or pasted into the control', () => {
  it.each([
    ['-14d', { start: '-14d', end: '-1d' }],
    [' −14d ', { start: '-14d', end: '-1d' }],
    ['last 14 days', { start: '-14d', end: '-1d' }],
    ['Last month', { start: '-1m_first', end: '-1m_last' }],
    ['Past 60 days', { start: '-60d', end: '-1d' }],
    ['today', { start: 'today', end: 'today' }],
    ['2026-11-02', { start: '2026-11-02', end: '2026-11-02' }],
    ['-1m_first', { start: '-1m_first', end: 'yesterday' }],
    ['-14d to yesterday', { start: '-14d', end: 'yesterday' }],
    ['-7d -1d', { start: '-7d', end: '-1d' }],
    ['2026-11-01 – 2026-11-30', { start: '2026-11-01', end: '2026-11-30' }],
    ['2026-11-01 - 2026-11-30', { start: '2026-11-01', end: '2026-11-30' }],
    ['2026-11-01/2026-11-30', { start: '2026-11-01', end: '2026-11-30' }],
    ['"start_date": "-14d", "end_date": "yesterday"', { start: '-14d', end: 'yesterday' }],
    ['start_date=-14d&end_date=-1d', { start: '-14d', end: '-1d' }],
  ])('reads %j', (text, tokens) => {
    expect(readDateRangeText(text, today)).toEqual({ tokens })
  })

  it('names what it did not understand', () => {
    expect(readDateRangeText('-7x', today)).toEqual({ error: expect.stringContaining('"-7x" is not a date: use YYYY-MM-DD, today') })
    expect(readDateRangeText('2026-02-30', today)).toEqual({ error: '"2026-02-30" is not a calendar date.' })
    expect(readDateRangeText('-1d to -7d', today)).toEqual({ error: '"-1d" comes after "-7d": put the start first.' })
    expect(readDateRangeText('-30d -14d -1d', today)).toEqual({ error: expect.stringContaining('is not one range') })
    expect(readDateRangeText('  ', today)).toEqual({ error: expect.stringContaining('Type a range') })
  })
})
