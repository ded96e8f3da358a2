/** An alert rule as the builder's form edits it, and a rule in words for the list. */
import { ALERT_RULE_DEFAULTS, alertRuleSchema, type AlertRule } from '@contract'
import { DIRECTION_LABELS } from './fired'

export function newRule(metric: string, taken: readonly string[]): AlertRule {
  let index = taken.length + 1
  while (taken.includes(`rule-${index}`)) index++
  return {
    id: `rule-${index}`,
    metric,
    direction: 'drop',
    minChangePct: 30,
    minZ: ALERT_RULE_DEFAULTS.minZ,
    minBaseline: ALERT_RULE_DEFAULTS.minBaseline,
    weeks: ALERT_RULE_DEFAULTS.weeks,
  }
}

/** "impressions: a drop of 30% or more, z ≥ 3, baseline ≥ 100, 4 weeks". */
export function ruleInWords(rule: AlertRule): string {
  const floor = rule.minBaseline > 0 ? `, baseline ≥ ${rule.minBaseline.toLocaleString('en-US')}` : ''
  return `${rule.metric}: ${DIRECTION_LABELS[rule.direction]} of ${rule.minChangePct}% or more, z ≥ ${rule.minZ}${floor}, against ${rule.weeks} week${rule.weeks === 1 ? '' : 's'}`
}

/** The rule, or the first problem of each field, as the contract says it. */
export function checkRule(rule: AlertRule): { ok: true; rule: AlertRule } | { ok: false; problems: Record<string, string> } {
  const parsed = alertRuleSchema.safeParse(rule)
  if (parsed.success) return { ok: true, rule: parsed.data }
  const problems: Record<string, string> = {}
  for (const issue of parsed.error.issues) problems[String(issue.path[0] ?? 'rule')] ??= issue.message
  return { ok: false, problems }
}

/** "Would have fired 5 times over 8 weeks, on 2 of 11 lines." */
export function backtestSummary(firedCount: number, weeks: number, lines: ReadonlyArray<{ firedCount: number }>): string {
  if (firedCount === 0) return `Would not have fired over the last ${weeks} weeks, on any of ${lines.length} line${lines.length === 1 ? '' : 's'}.`
  const firing = lines.filter((line) => line.firedCount > 0).length
  return `Would have fired ${firedCount} time${firedCount === 1 ? '' : 's'} over the last ${weeks} weeks, on ${firing} of ${lines.length} line${lines.length === 1 ? '' : 's'}.`
}

/** The line to draw first: the one that fired most (the total when none did). */
export function busiestLine<T extends { key: string; role: string; firedCount: number }>(lines: readonly T[]): T | undefined {
  const busiest = lines.reduce<T | undefined>((best, line) => (line.firedCount > (best?.firedCount ?? 0) ? line : best), undefined)
  return busiest ?? lines.find((line) => line.role === 'total') ?? lines[0]
}

/** What "Check now" found: "Checked 41 lines: 1 alert fired; it is in Alerts." */
export function checkInWords(result: { firings: readonly unknown[]; checkedSeries: number }): string {
  const lines = `${result.checkedSeries} line${result.checkedSeries === 1 ? '' : 's'}`
  const count = result.firings.length
  if (count === 0) return `Checked ${lines}: nothing unusual, or nothing new since the last check.`
  return `Checked ${lines}: ${count} new alert${count === 1 ? '' : 's'} fired; ${count === 1 ? 'it is' : 'they are'} in Alerts.`
}
