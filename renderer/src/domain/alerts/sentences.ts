/**
 * A fired alert as a sentence a user reads (issue 39): "Impressions fell 54% below the usual
 * Monday (24,976)", how unusual that is in a plain word (the robust z-score on hover), what
 * "data as of" means, and the order the list shows them in (most unusual first, then newest).
 */
import type { AlertRule, FiredAlertView } from '@contract'
import { DIRECTION_LABELS } from './fired'
import { metricInWords } from '../../../../common/alert-words'

export { alertSentence, metricInWords, usualOf } from '../../../../common/alert-words'

const MINUS = '\u2212'

/** How far from the usual, in plain words, most unusual first; `rank` orders the list. */
const LEVELS = [
  { from: 10, word: 'Extremely unusual', rank: 3 },
  { from: 5, word: 'Very unusual', rank: 2 },
  { from: 3, word: 'Unusual', rank: 1 },
  { from: 0, word: 'Somewhat unusual', rank: 0 },
] as const

function levelOf(z: number): (typeof LEVELS)[number] {
  const size = Math.abs(z)
  return LEVELS.find((level) => size >= level.from) ?? LEVELS[3]
}

/** "Very unusual" for a z-score of 5 to 10 either way. */
export function unusualWord(z: number): string {
  return levelOf(z).word
}

/** The number behind the word, for its hover: "z-score −27.0: …". */
export function zScoreTitle(z: number): string {
  const number = `${z < 0 ? MINUS : ''}${Math.abs(z).toFixed(1)}`
  return `Robust z-score ${number}: how many typical swings of this weekday the value is from its usual level (3 or more is unusual).`
}

/** What "data as of" means beside its time. */
export const DATA_AS_OF_MEANING =
  'The platform reports with a delay of a few hours (the data lag): buckets that end after this time were not judged yet, as their numbers may still change.'

/** Most unusual first; of the same level, the newest bucket first, then the latest fired. */
export function orderedAlerts<T extends Pick<FiredAlertView, 'z' | 'bucket' | 'firedAt'>>(alerts: readonly T[]): T[] {
  return [...alerts].sort((a, b) => levelOf(b.z).rank - levelOf(a.z).rank || b.bucket.localeCompare(a.bucket) || b.firedAt.localeCompare(a.firedAt))
}

/** The chart's series to hide so that the alert's line (by its label, as the alert names it) and the total are what Reports shows. */
export function hiddenForLine(series: ReadonlyArray<{ key: string; label: string; role: string }>, lineLabel: string): string[] {
  return series.filter((entry) => entry.role !== 'total' && entry.label !== lineLabel).map((entry) => entry.key)
}

/** A board tile's badge: "Impressions fell 54%" (the whole sentence goes in its title). */
export function alertBadge(alert: Pick<FiredAlertView, 'metric' | 'changePct'>): string {
  const size = Math.abs(alert.changePct)
  return `${metricInWords(alert.metric)} ${alert.changePct < 0 ? 'fell' : 'rose'} ${size >= 10 ? Math.round(size) : size.toFixed(1)}%`
}

/**
 * The rule an alert fired on, by what it watches rather than its internal id: "Fires on a change
 * either way of 40% or more in impressions against the usual weekday of the last 4 weeks, when
 * the usual is at least 20,000." A rule since deleted is named by its id.
 */
export function ruleSentence(rule: AlertRule | null, id: string): string {
  if (rule === null) return `Fired on the rule “${id}”, since deleted or changed.`
  const floor = rule.minBaseline > 0 ? `, when the usual is at least ${rule.minBaseline.toLocaleString('en-US')}` : ''
  const weeks = `${rule.weeks} week${rule.weeks === 1 ? '' : 's'}`
  const metric = rule.metric.replace(/_/g, ' ')
  return `Fires on ${DIRECTION_LABELS[rule.direction]} of ${rule.minChangePct}% or more in ${metric} against the usual weekday of the last ${weeks}${floor}.`
}
