import type { LedgerEntry } from '@contract'

export interface RunNowNotice {
  type: 'success' | 'error' | 'info'
  text: string
  /** Alerts the run fired: above 0, the notice links to Alerts. */
  alertsFired: number
}

/** What a schedule's Run now tells once it ends: its outcome, and how many alerts fired (they were said only in the ledger). */
export function runNowNotice(name: string, entry: Pick<LedgerEntry, 'outcome' | 'alertsFired' | 'error'>): RunNowNotice {
  const alertsFired = entry.alertsFired ?? 0
  if (entry.outcome === 'failed') return { type: 'error', text: `"${name}" failed: ${entry.error ?? 'see the run ledger'}`, alertsFired }
  if (entry.outcome === 'skipped') return { type: 'info', text: `"${name}" was already running: this run was skipped.`, alertsFired: 0 }
  const fired = alertsFired === 0 ? '' : `: ${alertsFired} alert${alertsFired === 1 ? '' : 's'} fired`
  return { type: 'success', text: `"${name}" ran${fired}.`, alertsFired }
}
