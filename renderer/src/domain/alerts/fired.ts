/** A fired alert in words, as the list and the view say it. */
import type { AlertDirection, FiredAlertState, FiredAlertView } from '@contract'

export const STATE_LABELS: Record<FiredAlertState, string> = { new: 'New', acknowledged: 'Acknowledged', snoozed: 'Snoozed' }

const percent = (value: number): string => `${Math.abs(value) >= 10 ? Math.round(Math.abs(value)) : Math.abs(value).toFixed(1)}%`

/** "down 62% against a baseline of 1,204 (z 5.1)". */
export function changeInWords(alert: Pick<FiredAlertView, 'changePct' | 'baseline' | 'z'>): string {
  const way = alert.changePct < 0 ? 'down' : 'up'
  return `${way} ${percent(alert.changePct)} against a baseline of ${Math.round(alert.baseline).toLocaleString('en-US')} (z ${alert.z.toFixed(1)})`
}

export const DIRECTION_LABELS: Record<AlertDirection, string> = { drop: 'a drop', rise: 'a rise', either: 'a change either way' }

/** "Publisher A: impressions down 62%…". */
export function alertTitle(alert: Pick<FiredAlertView, 'series' | 'metric' | 'changePct' | 'baseline' | 'z'>): string {
  return `${alert.series}: ${alert.metric} ${changeInWords(alert)}`
}

/** The choices of Snooze, each as the moment it ends. */
export function snoozeChoices(now: Date): Array<{ label: string; until: Date }> {
  const tomorrow = new Date(now)
  tomorrow.setDate(tomorrow.getDate() + 1)
  tomorrow.setHours(8, 0, 0, 0)
  return [
    { label: 'For 1 hour', until: new Date(now.getTime() + 3_600_000) },
    { label: 'Until tomorrow 08:00', until: tomorrow },
    { label: 'For a week', until: new Date(now.getTime() + 7 * 86_400_000) },
  ]
}
