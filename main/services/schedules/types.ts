/**
 * What the schedules service offers the handlers and the command line (contract: preload/contract/schedules.ts).
 */
import type { LedgerEntry, OsEntryState, Schedule, ScheduleDraft, SchedulesState, ScheduleRunOutcome, RunSource } from '@contract'

export interface LedgerQuery {
  scheduleId?: string
  search?: string
  outcome?: ScheduleRunOutcome
  source?: RunSource
  late?: boolean
  offset?: number
  limit?: number
}

export interface SchedulesService {
  list(): Promise<SchedulesState>
  save(draft: ScheduleDraft): Promise<Schedule>
  remove(id: string): Promise<{ id: string }>
  /** Runs it now whatever its cadence; resolves with its ledger line when it ends. */
  runNow(id: string): Promise<LedgerEntry>
  ledger(query: LedgerQuery): Promise<{ total: number; entries: LedgerEntry[] }>
  clearFailures(): Promise<{ failureCount: number }>
  /** Main's folder dialog; the folder is remembered under an opaque id. */
  chooseFolder(): Promise<{ id: string; name: string } | null>
  installEntry(): Promise<OsEntryState>
  removeEntry(): Promise<OsEntryState>
  setKeepRunning(keepRunning: boolean): Promise<{ keepRunningInBackground: boolean }>
}
