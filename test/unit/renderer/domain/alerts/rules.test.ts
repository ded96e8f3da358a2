import { describe, expect, it } from 'vitest'
import { backtestSummary, busiestLine, checkRule, newRule, ruleInWords } from '../../../../../renderer/src/domain/alerts/rules'

describe('alert rules in the builder', () => {
  it('starts a rule with the issue defaults and an id not yet taken', () => {
    expect(newRule('imps', ['rule-2'])).toEqual({ id: 'rule-3', metric: 'imps', direction: 'drop', minChangePct: 30, minZ: 3, minBaseline: 0, weeks: 4 })
  })

  it('says a rule in words', () => {
    expect(ruleInWords({ ...newRule('imps', []), minBaseline: 1000 })).toBe('imps: a drop of 30% or more, z ≥ 3, baseline ≥ 1,000, against 4 weeks')
  })

  it('puts a problem under its field', () => {
    const check = checkRule({ ...newRule('imps', []), weeks: 40 })
    expect(!check.ok && Object.keys(check.problems)).toEqual(['weeks'])
  })

  it('says how often the backtest fired, and picks the busiest line to draw', () => {
    const lines = [
      { key: 'imps|Total', role: 'total', firedCount: 0 },
      { key: 'imps|A', role: 'line', firedCount: 3 },
      { key: 'imps|B', role: 'line', firedCount: 1 },
    ]
    expect(backtestSummary(4, 8, lines)).toBe('Would have fired 4 times over the last 8 weeks, on 2 of 3 lines.')
    expect(backtestSummary(0, 8, lines)).toBe('Would not have fired over the last 8 weeks, on any of 3 lines.')
    expect(busiestLine(lines)?.key).toBe('imps|A')
    expect(busiestLine(lines.map((line) => ({ ...line, firedCount: 0 })))?.key).toBe('imps|Total')
  })
})
