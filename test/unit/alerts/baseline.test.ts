import { describe, expect, it } from 'vitest'
import { alertRuleSchema, type AlertRuleInput } from '@contract'
import { judgeLine, judgeWindow, parseBucket, seasonalIndex, type AlertGranularity } from '../../../main/services/alerts/baseline'

const DAY_MS = 86_400_000

/** Consecutive local days as the platform writes them, `count` of them ending on `last`. */
function days(last: string, count: number): string[] {
  const end = Date.parse(`${last}T00:00:00Z`)
  return Array.from({ length: count }, (_, index) => new Date(end - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10))
}

/** Weekdays busy, weekends at 40%, with a small deterministic wobble so the spread is not zero. */
function weeklyShape(categories: readonly string[], weekday = 1_000): number[] {
  return categories.map((text, index) => {
    const weekend = [0, 6].includes(new Date(`${text}T00:00:00Z`).getUTCDay())
    return (weekend ? weekday * 0.4 : weekday) * (1 + ((index * 7) % 5) / 100)
  })
}

const rule = (fields: Partial<AlertRuleInput> = {}) =>
  alertRuleSchema.parse({ id: 'drop', metric: 'impressions', direction: 'drop', minChangePct: 30, ...fields })

function judge(
  categories: string[],
  values: Array<number | null>,
  ruleFields: Partial<AlertRuleInput>,
  options: { fromDay: string; now: string; lagHours?: number; granularity?: AlertGranularity; offset?: number },
) {
  const parsedRule = rule(ruleFields)
  const granularity = options.granularity ?? 'granularity_day'
  const dataAsOf = Date.parse(options.now) - (options.lagHours ?? 4) * 3_600_000
  const window = judgeWindow(categories, granularity, options.offset ?? 0, parseBucket(options.fromDay)!.day, dataAsOf)
  return { window, line: judgeLine(values, seasonalIndex(categories, parsedRule.weeks), parsedRule, window) }
}

const firedBuckets = (categories: readonly string[], fired: Uint8Array) => categories.filter((_, index) => fired[index])

describe('the seasonal baseline', () => {
  // Five weeks of history ending yesterday (Wednesday 25 November 2026); "now" is today at noon UTC.
  const categories = days('2026-11-25', 35)
  const now = '2026-11-26T12:00:00Z'

  it('does not fire on a normal weekly shape (weekends at 40% of weekdays)', () => {
    const { line } = judge(categories, weeklyShape(categories), { direction: 'either' }, { fromDay: '2026-11-19', now })
    expect(line.firedCount).toBe(0)
    // The weekend was judged against weekends: its baseline is the weekend level, not the week's.
    const saturday = categories.indexOf('2026-11-21')
    expect(line.baseline[saturday]).toBeLessThan(500)
    expect(line.baseline[categories.indexOf('2026-11-24')]).toBeGreaterThan(900)
  })

  it('fires on a 60% drop, with its value, baseline, change and z-score', () => {
    const values = weeklyShape(categories)
    const yesterday = categories.length - 1
    values[yesterday] = (values[yesterday] as number) * 0.4
    const { line } = judge(categories, values, {}, { fromDay: '2026-11-19', now })
    expect(firedBuckets(categories, line.fired)).toEqual(['2026-11-25'])
    expect(line.changePct[yesterday]).toBeCloseTo(-60, -1)
    expect(line.z[yesterday]).toBeLessThan(-3)
    expect(line.low[yesterday]).toBeGreaterThan(values[yesterday] as number)
    // A rise rule does not fire on a drop.
    expect(judge(categories, values, { direction: 'rise' }, { fromDay: '2026-11-19', now }).line.firedCount).toBe(0)
  })

  it('lets the floor silence a tiny series (10 → 1)', () => {
    const values = weeklyShape(categories, 10)
    values[values.length - 1] = 1
    expect(judge(categories, values, { minBaseline: 100 }, { fromDay: '2026-11-19', now }).line.firedCount).toBe(0)
    // Without the floor the same series fires: the floor is what keeps it quiet.
    expect(judge(categories, values, { minBaseline: 0 }, { fromDay: '2026-11-19', now }).line.firedCount).toBe(1)
  })

  it('never judges buckets inside the data lag', () => {
    const withToday = days('2026-11-26', 36)
    const values = weeklyShape(withToday)
    values[values.length - 1] = 10 // today so far: incomplete, so it looks like a crash
    const early = judge(withToday, values, {}, { fromDay: '2026-11-19', now: '2026-11-27T02:00:00Z' })
    expect(early.window.until).toBe(withToday.length - 1)
    expect(early.line.firedCount).toBe(0)
    expect(early.line.baseline[withToday.length - 1]).toBeNaN()
    // Once the lag has passed the day is complete and is judged.
    const late = judge(withToday, values, {}, { fromDay: '2026-11-19', now: '2026-11-27T05:00:00Z' })
    expect(firedBuckets(withToday, late.line.fired)).toEqual(['2026-11-26'])
  })

  it('counts the lag from the end of the bucket in the report offset', () => {
    const hours = Array.from({ length: 24 }, (_, hour) => `2026-11-26 ${String(hour).padStart(2, '0')}:00`)
    // At 12:00 UTC in a UTC+2 report it is 14:00 local; with 4 hours of lag, buckets up to 09:00 are complete.
    const window = judgeWindow(hours, 'granularity_hour', 2, parseBucket('2026-11-26')!.day, Date.parse('2026-11-26T12:00:00Z') - 4 * 3_600_000)
    expect(hours[window.until - 1]).toBe('2026-11-26 09:00')
  })
})

describe('weekday alignment across a daylight-saving change', () => {
  // Berlin left summer time on Sunday 25 October 2026 (03:00 CEST became 02:00 CET).
  const zone = 'Europe/Berlin'
  const local = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
  const text = (ms: number) => {
    const parts = Object.fromEntries(local.formatToParts(new Date(ms)).map((part) => [part.type, part.value]))
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`
  }
  /** Office hours: 09:00–17:59 local busy, the rest quiet; weekends quiet. */
  const shape = (bucket: string) => {
    const { day, minute } = parseBucket(bucket)!
    const weekend = [0, 6].includes(new Date(day * DAY_MS).getUTCDay())
    const hour = minute / 60
    return (weekend ? 100 : hour >= 9 && hour < 18 ? 1_000 : 100) * (1 + (day % 3) / 100)
  }
  // Hourly buckets from 1 October to 5 November 2026 in Berlin's own wall time.
  const start = Date.parse('2026-09-30T22:00:00Z')
  const end = Date.parse('2026-11-05T23:00:00Z')
  const instants: number[] = []
  for (let ms = start; ms < end; ms += 3_600_000) instants.push(ms)
  const categories = [...new Set(instants.map(text))]
  const values = categories.map(shape)

  it('compares 17:00 on a Thursday after the change with 17:00 on the Thursdays before it, and does not fire', () => {
    const parsed = rule({ direction: 'either' })
    const index = seasonalIndex(categories, parsed.weeks)
    const window = { from: categories.indexOf('2026-10-26 00:00'), until: categories.length }
    const line = judgeLine(values, index, parsed, window)
    expect(firedBuckets(categories, line.fired)).toEqual([])
    const at = categories.indexOf('2026-10-29 17:00')
    const looked = Array.from({ length: parsed.weeks }, (_, week) => categories[index[at * parsed.weeks + week] as number])
    expect(looked).toEqual(['2026-10-22 17:00', '2026-10-15 17:00', '2026-10-08 17:00', '2026-10-01 17:00'])
    expect(line.baseline[at]).toBeGreaterThan(900)
  })

  it('would fire had it gone back 7 × 24 hours instead (the test can tell the difference)', () => {
    // The same instant minus a week lands on 18:00 local before the change: a quiet hour, so the busy 17:00 would look like a spike.
    const thursdayFive = instants.find((ms) => text(ms) === '2026-10-29 17:00')!
    expect(text(thursdayFive - 7 * DAY_MS)).toBe('2026-10-22 18:00')
    expect(shape('2026-10-22 18:00')).toBeLessThan(shape('2026-10-29 17:00') / 5)
  })
})
