import { describe, expect, it } from 'vitest'
import { AppError } from '../../../main/services/errors'
import {
  chooseOffset,
  comparisonRange,
  dayNumber,
  formatDay,
  localToday,
  parseDay,
  resolveDateToken,
  resolveTokens,
  suggestGranularity,
} from '../../../main/services/reports/dates'
// The demo backend's resolver, read only to prove both make the same decisions.
import { localToday as sandboxToday, parseDateExpression } from '../../../main/sandbox/reporting/dates'
import { grammarCases, invalidTokens, monthEndCases, monthOfDayCases } from '../../support/date-token-cases'

const day = (text: string): number => {
  const parsed = parseDay(text)
  if (parsed === null) throw new Error(`bad test date ${text}`)
  return parsed
}
const resolve = (token: string, today: string): string => {
  const result = resolveDateToken(token, day(today))
  return typeof result === 'number' ? formatDay(result) : `error: ${result.error}`
}

describe('date tokens', () => {
  it('reads every form of the grammar', () => {
    for (const [token, today, expected] of grammarCases) expect(resolve(token, today), `${token} on ${today}`).toBe(expected)
    expect(resolve(' -7d ', '2024-06-15')).toBe('2024-06-08')
  })

  it('reads -Nd_m_first as the vendor documents it, across month ends, year ends and leap days', () => {
    for (const [token, today, expected] of monthOfDayCases) expect(resolve(token, today), `${token} on ${today}`).toBe(expected)
  })

  it('clamps "N months back" to the end of shorter months, leap years included', () => {
    for (const [token, today, expected] of monthEndCases) expect(resolve(token, today), `${token} on ${today}`).toBe(expected)
  })

  it('refuses anything else with a sentence', () => {
    for (const token of invalidTokens) expect(resolve(token, '2024-06-15'), token).toMatch(/^error: .+\.$/)
  })

  it('agrees with the demo backend on every form both read', () => {
    const tokens = [
      'today',
      'yesterday',
      '-0d',
      '-1d',
      '-45days',
      '-400d',
      '-0m',
      '-1m',
      '-3months',
      '-25m',
      '-0m_first',
      '-1m_first',
      '-2months_first',
      '-0m_last',
      '-1m_last',
      '-1month_last',
      '-3months_last',
      '-1day',
      '-1month',
      '2024-02-29',
      '2023-02-29',
      'tomorrow',
      '-1d_first',
      '-1y',
    ]
    const todays = ['2024-01-01', '2024-02-29', '2024-03-31', '2023-03-31', '2024-05-31', '2024-12-31', '2021-10-12', '2000-02-29']
    for (const today of todays) {
      for (const token of tokens) {
        const ours = resolveDateToken(token, day(today))
        const theirs = parseDateExpression(token, day(today))
        expect(typeof ours === 'number' ? formatDay(ours) : 'error', `${token} on ${today}`).toBe(typeof theirs === 'number' ? formatDay(theirs) : 'error')
      }
    }
  })

  it('agrees with the demo backend on -Nd_m_first once the backend reads it', () => {
    for (const token of ['-15d_m_first', '15d_m_first', '-100d_m_first', '30d_m_first', '0d_m_first']) {
      const theirs = parseDateExpression(token, day('2021-10-12'))
      // The backend learns this vendor form in its own change; until then only ours is checked (above).
      if (typeof theirs !== 'number') continue
      expect(resolve(token, '2021-10-12')).toBe(formatDay(theirs))
    }
  })

  it('evaluates "today" at the offset, as the demo backend does', () => {
    const cases: Array<[string, number, string]> = [
      ['2024-06-15T10:30:00Z', 0, '2024-06-15'],
      ['2024-06-15T10:30:00Z', -11, '2024-06-14'],
      ['2024-06-15T20:00:00Z', 4, '2024-06-16'],
      ['2024-06-15T23:59:59Z', 1, '2024-06-16'],
      ['2024-06-15T00:00:00Z', -1, '2024-06-14'],
      ['2024-06-15T11:00:00Z', 12, '2024-06-15'],
      ['2024-06-15T12:00:00Z', 12, '2024-06-16'],
      ['2024-06-15T11:59:00Z', -12, '2024-06-14'],
    ]
    for (const [instant, offset, expected] of cases) {
      const now = new Date(instant)
      expect(formatDay(localToday(now, offset)), `${instant} at ${offset}`).toBe(expected)
      expect(localToday(now, offset)).toBe(sandboxToday(now, offset))
    }
  })
})

describe('resolving a pair of tokens', () => {
  const now = new Date('2024-03-01T02:00:00Z')

  it('gives inclusive ranges in the offset', () => {
    expect(resolveTokens('-7d', 'yesterday', 0, now)).toEqual({ start: day('2024-02-23'), end: day('2024-02-29') })
    // At UTC−5 it is still 29 February.
    expect(resolveTokens('today', 'today', -5, now)).toEqual({ start: day('2024-02-29'), end: day('2024-02-29') })
  })

  it('names the field of a bad token, and refuses a start after the end', () => {
    const failure = (start: string, end: string): AppError => {
      try {
        resolveTokens(start, end, 0, now)
      } catch (error) {
        if (error instanceof AppError) return error
      }
      throw new Error('expected a failure')
    }
    const start = failure('-1y', 'today')
    expect(start.code).toBe('validation')
    expect(start.details).toMatchObject({ field: 'dates', part: 'start' })
    expect(start.message).toMatch(/^Start date: "-1y" is not a date/)
    expect(failure('today', 'soon').details).toMatchObject({ field: 'dates', part: 'end' })
    const reversed = failure('today', '-3d')
    expect(reversed.message).toBe('The start date (2024-03-01) is after the end date (2024-02-27); swap them or pick another range.')
  })
})

describe('the offset of a rule', () => {
  const context = { reportTimezone: 3, supportsTimezone: true, osOffsetMinutes: 120 }

  it('takes the report, the computer or a fixed offset', () => {
    expect(chooseOffset({ mode: 'report' }, context)).toEqual({ offset: 3, notes: [] })
    expect(chooseOffset({ mode: 'os' }, context)).toEqual({ offset: 2, notes: [] })
    expect(chooseOffset({ mode: 'fixed', offset: -7 }, context)).toEqual({ offset: -7, notes: [] })
    expect(chooseOffset({ mode: 'report' }, { ...context, reportTimezone: null }).offset).toBe(0)
  })

  it('rounds a computer offset toward zero to whole hours, clamps it, and says so', () => {
    const india = chooseOffset({ mode: 'os' }, { ...context, osOffsetMinutes: 330 })
    expect(india.offset).toBe(5)
    expect(india.notes[0]).toContain('UTC+5:30')
    expect(chooseOffset({ mode: 'os' }, { ...context, osOffsetMinutes: -210 }).offset).toBe(-3)
    expect(chooseOffset({ mode: 'os' }, { ...context, osOffsetMinutes: 13 * 60 }).offset).toBe(12)
    expect(chooseOffset({ mode: 'os' }, { ...context, osOffsetMinutes: 13 * 60 }).notes).toHaveLength(1)
  })

  it('uses the report offset when the report cannot change it', () => {
    const chosen = chooseOffset({ mode: 'fixed', offset: -7 }, { ...context, supportsTimezone: false })
    expect(chosen.offset).toBe(3)
    expect(chosen.notes[0]).toMatch(/does not let the timezone change/)
  })
})

describe('comparison periods', () => {
  const range = (start: string, end: string) => ({ start: day(start), end: day(end) })
  const show = (value: { start: number; end: number }) => `${formatDay(value.start)}..${formatDay(value.end)}`

  it('previous period: the same number of days right before', () => {
    expect(show(comparisonRange(range('2024-03-01', '2024-03-07'), 'previous_period'))).toBe('2024-02-23..2024-02-29')
    expect(show(comparisonRange(range('2024-03-01', '2024-03-01'), 'previous_period'))).toBe('2024-02-29..2024-02-29')
  })

  it('previous year: the same dates, 29 February clamped', () => {
    expect(show(comparisonRange(range('2024-02-01', '2024-02-29'), 'previous_year'))).toBe('2023-02-01..2023-02-28')
    expect(show(comparisonRange(range('2023-12-25', '2024-01-07'), 'previous_year'))).toBe('2022-12-25..2023-01-07')
  })
})

describe('suggested granularity', () => {
  it('hour up to 3 days, day up to 90, week up to a year, then month', () => {
    expect([1, 3, 4, 90, 91, 366, 367, 1000].map(suggestGranularity)).toEqual(['hour', 'hour', 'day', 'day', 'week', 'week', 'month', 'month'])
  })

  it('numbers days from 1970', () => {
    expect(dayNumber(1970, 1, 1)).toBe(0)
    expect(formatDay(dayNumber(2024, 2, 29))).toBe('2024-02-29')
  })
})
