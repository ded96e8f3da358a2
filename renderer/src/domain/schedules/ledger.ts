/**
 * The run ledger's filters and how a line reads. Main filters and searches (the ledger can
 * hold thousands of lines); the page turns what the user picked into that query, and says each
 * line's times, duration and outcome the same way everywhere.
 */
import type { Api, LedgerEntry, RunSource, ScheduleRunOutcome } from '@contract'
import { formatDateTime } from '../../../../common/date-format'

export interface LedgerFilters {
  search: string
  outcome: ScheduleRunOutcome | 'any'
  source: RunSource | 'any'
  lateOnly: boolean
  scheduleId: string | null
}

export const EMPTY_LEDGER_FILTERS: LedgerFilters = { search: '', outcome: 'any', source: 'any', lateOnly: false, scheduleId: null }

/** What `schedules:ledger` takes, as the contract says it. */
export type LedgerRequest = Parameters<Api['schedules']['ledger']>[0]

/** Only what narrows the list is sent: "any" and an empty search are left out, "late only" asks for late runs alone. */
export function ledgerQuery(filters: LedgerFilters, page: { offset: number; limit: number }): LedgerRequest {
  const search = filters.search.trim()
  return {
    ...(search === '' ? {} : { search }),
    ...(filters.outcome === 'any' ? {} : { outcome: filters.outcome }),
    ...(filters.source === 'any' ? {} : { source: filters.source }),
    ...(filters.lateOnly ? { late: true } : {}),
    ...(filters.scheduleId === null ? {} : { scheduleId: filters.scheduleId }),
    offset: page.offset,
    limit: page.limit,
  }
}

export function filtersActive(filters: LedgerFilters): boolean {
  return ledgerQueryKeys(filters).length > 0
}

function ledgerQueryKeys(filters: LedgerFilters): string[] {
  return Object.keys(ledgerQuery(filters, { offset: 0, limit: 1 })).filter((key) => key !== 'offset' && key !== 'limit')
}

/** "0.4 s", "12 s", "3 min 5 s". */
export function durationInWords(ms: number): string {
  if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  const rest = seconds % 60
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`
}

/** A date and time as every screen shows one (common/date-format.ts); an unreadable one as it came. */
export function shortDateTime(iso: string): string {
  return Number.isNaN(new Date(iso).getTime()) ? iso : formatDateTime(iso)
}

/** When it ran: a late run says both times, so the user sees how far behind it started. */
export function runTimes(entry: Pick<LedgerEntry, 'plannedAt' | 'startedAt' | 'late'>): string {
  const started = shortDateTime(entry.startedAt)
  if (entry.plannedAt === null) return `${started} (run by hand)`
  if (!entry.late) return started
  return `Due ${shortDateTime(entry.plannedAt)}, ran ${started} (late)`
}

export const OUTCOME_LABELS: Record<ScheduleRunOutcome, string> = { ok: 'Succeeded', failed: 'Failed', skipped: 'Skipped' }
export const SOURCE_LABELS: Record<RunSource, string> = { app: 'The app', os: 'The OS entry' }

/** What the run did, in a few words: the file, the alerts. */
export function runResult(entry: Pick<LedgerEntry, 'fileName' | 'alertsFired' | 'outcome'>): string {
  const parts: string[] = []
  if (entry.fileName !== null) parts.push(`Wrote ${entry.fileName}`)
  if (entry.alertsFired !== null)
    parts.push(entry.alertsFired === 0 ? 'no alert fired' : `${entry.alertsFired} alert${entry.alertsFired === 1 ? '' : 's'} fired`)
  if (parts.length === 0) return entry.outcome === 'skipped' ? 'Another run of it was still going' : '—'
  const text = parts.join(', ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}
