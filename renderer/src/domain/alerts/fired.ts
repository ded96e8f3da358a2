/** A fired alert in words, as the list and the view say it. */
import type { AlertDirection, FiredAlertState } from '@contract'

export const STATE_LABELS: Record<FiredAlertState, string> = { new: 'New', acknowledged: 'Acknowledged', snoozed: 'Snoozed' }

export const DIRECTION_LABELS: Record<AlertDirection, string> = { drop: 'a drop', rise: 'a rise', either: 'a change either way' }

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
