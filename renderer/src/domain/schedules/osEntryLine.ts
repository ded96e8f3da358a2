import type { OsEntryState } from '@contract'
import { shortDateTime } from './ledger'

/**
 * The line under a schedule's last run about the OS entry. Where no scheduler can be used (the
 * web host, a system without user systemd or crontab) there is no OS entry to have run it, so
 * the line says what runs it instead; "has not run it" there read as a fault.
 */
export function osEntryLine(entry: OsEntryState | null, lastRunAt: string | null): string | null {
  if (lastRunAt !== null) return `OS entry: last ran it ${shortDateTime(lastRunAt)}`
  if (entry === null) return null
  if (entry.kind === null) return 'No OS entry on this system: the app runs it while it is open.'
  return entry.installed ? 'OS entry: has not run it yet' : 'OS entry: not installed; the app runs it while it is open.'
}
