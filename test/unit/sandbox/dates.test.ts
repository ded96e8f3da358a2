import { describe, expect, it } from 'vitest'
import { bucketMapping, bucketOfLocalHour, dayNumber, formatBucket, formatDay, localToday, parseDateExpression } from '../../../main/sandbox/reporting/dates'
import type { Granularity } from '../../../main/sandbox/reporting/dates'
import { grammarCases, invalidTokens, monthEndCases, monthOfDayCases } from '../../support/date-token-cases'

const day = (text: string): number => {
  const [year, month, date] = text.split('-').map(Number)
  return dayNumber(year ?? 0, month ?? 0, date ?? 0)
}
const parse = (text: string, today: string): string => {
  const result = parseDateExpression(text, day(today))
  return typeof result === 'number' ? formatDay(result) : `error: ${result.error}`
}

describe('parseDateExpression', () => {
  it('reads every form of the grammar', () => {
    for (const [token, today, expected] of grammarCases) expect(parse(token, today), `${token} on ${today}`).toBe(expected)
  })

  it('clamps "N months back" to the end of shorter months', () => {
    for (const [token, today, expected] of monthEndCases) expect(parse(token, today), `${token} on ${today}`).toBe(expected)
  })

  it('reads -Nd_m_first as the first day of the month holding today minus N days, across month ends, year ends and leap days', () => {
    for (const [token, today, expected] of monthOfDayCases) expect(parse(token, today), `${token} on ${today}`).toBe(expected)
  })

  it('evaluates -Nd_m_first from the local today of the time zone', () => {
    // 22:30 UTC on 30 June is already 1 July at UTC+2, still 30 June at UTC-5.
    const now = new Date('2024-06-30T22:30:00Z')
    const at = (text: string, timezone: number): string => {
      const result = parseDateExpression(text, localToday(now, timezone))
      return typeof result === 'number' ? formatDay(result) : result.error
    }
    expect(at('0d_m_first', 0)).toBe('2024-06-01')
    expect(at('0d_m_first', 2)).toBe('2024-07-01')
    expect(at('0d_m_first', -5)).toBe('2024-06-01')
    expect(at('-1d_m_first', 2)).toBe('2024-06-01')
    expect(at('1d_m_first', -5)).toBe('2024-07-01')
    expect(at('1d_m_first', 12)).toBe('2024-07-01')
  })

  it('rejects anything else with a sentence', () => {
    for (const text of invalidTokens) expect(parse(text, '2024-06-15'), text).toMatch(/^error: .+/)
  })

  it('evaluates today in the given time zone', () => {
    const now = new Date('2024-06-15T10:30:00Z')
    expect(formatDay(localToday(now, 0))).toBe('2024-06-15')
    expect(formatDay(localToday(now, -11))).toBe('2024-06-14')
    expect(formatDay(localToday(new Date('2024-06-15T20:00:00Z'), 4))).toBe('2024-06-16')
  })
})

describe('time buckets', () => {
  const at = (granularity: Granularity, date: string, hour = 0): string => formatBucket(granularity, bucketOfLocalHour(granularity, day(date) * 24 + hour))

  it('formats each granularity as the spec table says', () => {
    expect(at('hour', '2024-06-14', 7)).toBe('2024-06-14 07:00')
    expect(at('day', '2024-06-14')).toBe('2024-06-14')
    expect(at('month', '2024-06-14')).toBe('2024-06')
    expect(at('quarter', '2024-06-14')).toBe('2024 Q2')
    expect(at('quarter', '2024-10-01')).toBe('2024 Q4')
    expect(at('year', '2024-06-14')).toBe('2024')
  })

  it('numbers ISO weeks, including across year ends', () => {
    expect(at('week', '2024-06-14')).toBe('2024-W24')
    expect(at('week', '2021-01-03')).toBe('2020-W53')
    expect(at('week', '2021-01-04')).toBe('2021-W01')
    expect(at('week', '2024-12-30')).toBe('2025-W01')
    expect(at('week', '2023-01-01')).toBe('2022-W52')
    // Monday to Sunday share a bucket.
    expect(bucketOfLocalHour('week', day('2024-06-10') * 24)).toBe(bucketOfLocalHour('week', day('2024-06-16') * 24 + 23))
    expect(bucketOfLocalHour('week', day('2024-06-16') * 24)).not.toBe(bucketOfLocalHour('week', day('2024-06-17') * 24))
  })

  it('gives readable mappings', () => {
    expect(bucketMapping('day', day('2024-06-14'))).toBe('Fri, 14 Jun 2024')
    expect(bucketMapping('week', bucketOfLocalHour('week', day('2024-06-14') * 24))).toBe('Week 24: Mon, 10 Jun 2024 – Sun, 16 Jun 2024')
    expect(bucketMapping('quarter', bucketOfLocalHour('quarter', day('2024-06-14') * 24))).toBe('Q2 2024 (Apr – Jun)')
  })
})
