import { describe, expect, it } from 'vitest'
import { alertRuleSchema, type AlertRuleInput } from '@contract'
import { judgeLine, judgeWindow, parseBucket, seasonalIndex } from '../../../main/services/alerts/baseline'

/**
 * A hostile platform answers numbers at the edge of a double (±1e308). Summing two of them
 * (an even-count median) or subtracting one from the other overflows to ±Infinity, which no
 * answer, fired alert or file may carry: every figure a judgement gives is finite, or NaN
 * (not judged, and counted so the answer can say so).
 */
const DAY_MS = 86_400_000
const categories = Array.from({ length: 35 }, (_, index) => new Date(Date.parse('2026-10-22T00:00:00Z') + index * DAY_MS).toISOString().slice(0, 10))
const now = Date.parse('2026-11-26T12:00:00Z')

function judge(values: Array<number | null>, fields: Partial<AlertRuleInput>) {
  const rule = alertRuleSchema.parse({ id: 'r', metric: 'impressions', direction: 'either', minChangePct: 30, minZ: 3, ...fields })
  const window = judgeWindow(categories, 'granularity_day', 0, parseBucket('2026-11-19')!.day, now - 4 * 3_600_000)
  return { window, line: judgeLine(values, seasonalIndex(categories, rule.weeks), rule, window) }
}

/** 1e308 before the judged week, −1e308 inside it: the review's hostile answer. */
const hostile = categories.map((text) => (text >= '2026-11-19' ? -1e308 : 1e308))

function expectFiniteOrNotJudged(line: ReturnType<typeof judge>['line']): void {
  for (const values of [line.baseline, line.low, line.high, line.changePct, line.z]) {
    for (const value of values) expect(Number.isNaN(value) || Number.isFinite(value)).toBe(true)
  }
}

describe('a baseline over numbers at the edge of a double', () => {
  it('keeps an even-count median of 1e308 finite (weeks 4), and judges the drop', () => {
    const { line, window } = judge(hostile, { weeks: 4 })
    expectFiniteOrNotJudged(line)
    const judged = categories.length - 1
    expect(judged).toBeGreaterThanOrEqual(window.from)
    expect(line.baseline[judged]).toBe(1e308)
    expect(line.changePct[judged]).toBeCloseTo(-200, 6)
    expect(line.fired[judged]).toBe(1)
  })

  it('keeps the change and the z-score finite when the value is −1e308 against 1e308 (weeks 3)', () => {
    const { line } = judge(hostile, { weeks: 3 })
    expectFiniteOrNotJudged(line)
    expect(line.firedCount).toBeGreaterThan(0)
    const fired = [...line.fired].flatMap((value, at) => (value === 1 ? [at] : []))
    for (const at of fired) {
      expect(Number.isFinite(line.changePct[at])).toBe(true)
      expect(Number.isFinite(line.z[at])).toBe(true)
    }
  })

  it('leaves a bucket whose change cannot be a number unjudged, and counts it', () => {
    // A baseline of a millionth against 1e308: the change in percent is past any double.
    const values = categories.map((text) => (text >= '2026-11-19' ? 1e308 : 1e-6))
    const { line } = judge(values, { weeks: 3 })
    expectFiniteOrNotJudged(line)
    expect(line.unjudged).toBeGreaterThan(0)
    expect(line.firedCount).toBe(0)
  })

  it('gives the same figures as before for ordinary numbers', () => {
    const values = categories.map((_, index) => 1_000 + ((index * 7) % 5))
    const { line } = judge(values, { weeks: 4 })
    expect(line.unjudged).toBe(0)
    const at = categories.length - 1
    const history = [values[at - 7], values[at - 14], values[at - 21], values[at - 28]].map(Number).sort((left, right) => left - right)
    expect(line.baseline[at]).toBe(((history[1] as number) + (history[2] as number)) / 2)
  })
})
