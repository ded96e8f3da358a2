/**
 * What the schedules service takes (its dependencies, passed in by the app, the command line
 * and the tests) and what it offers beyond the handlers' SchedulesService (service.ts builds it).
 */
import type { LedgerEntry, ReportDefinition, RunSource } from '@contract'
import type { BoardFileMaker } from '../boards/board-file-types'
import type { Notices } from '../notices'
import type { AlertsPort } from './alerts-port'
import type { Ledger, LedgerOptions } from './ledger'
import type { RunnerDependencies, RunClock } from './runner'
import type { SchedulerClock } from './scheduler'
import type { StoredSchedule } from './schedule-store'
import type { ProcessIdentity } from './process-identity'
import type { OsEntryPort } from './schedule-view'
import type { SchedulesService } from './types'

export interface SchedulesServiceOptions {
  /** `<data>/schedules`: the file of schedules, the ledger and the locks. */
  folder: string
  source: RunSource
  notices: Pick<Notices, 'add'>
  clock: SchedulerClock & RunClock
  presetOf(name: string): Promise<ReportDefinition>
  /** Throws `not_found` when there is no board of that name. */
  boardExists(name: string): Promise<void>
  /** Draws a board as one PDF or PNG file; null where this build cannot (board runs then fail with a sentence). */
  boardFiles: BoardFileMaker | null
  /** The report's own timezone in whole hours (the platform's `info`); null when it has none. */
  reportOffsetHours(profileId: string, definition: ReportDefinition): Promise<number | null>
  exportTo(
    schedule: StoredSchedule,
    format: 'xlsx' | 'csv' | 'tsv',
    targetOf: Parameters<RunnerDependencies['exportTo']>[2],
  ): ReturnType<RunnerDependencies['exportTo']>
  alerts: AlertsPort | null
  chooseFolderPath(): Promise<string | null>
  notify(notification: { title: string; body: string; failed: boolean }): void
  ran(entry: LedgerEntry, failureCount: number): void
  osEntry: OsEntryPort | null
  backgroundSupported: boolean
  pid: number
  log: { warn(message: string, details?: Record<string, unknown>): void }
  isAlive?: (pid: number) => boolean
  /** What tells a lock's holder from a later process with its pid; /proc on Linux by default. */
  processIdentity?: ProcessIdentity
  /** The computer's IANA zone; the process's own when absent (tests pin one). */
  computerTimeZone?: string
  retry?: { attempts: number; firstDelayMs: number }
  /** The ledger's file system (tests: one whose appends fail as a full disk's do). */
  ledgerFs?: LedgerOptions['fs']
}

export interface RunningSchedules extends SchedulesService {
  /** Starts the app's timer (the first check runs missed slots once, late). */
  start(): Promise<void>
  /** The machine woke: look now. */
  wake(): Promise<void>
  stop(): void
  /** The "keep running in the tray / menu bar" setting, as the window closes. */
  keepRunning(): Promise<boolean>
  /** Resolves once no check and no run is going on (tests; quitting waits for runs). */
  idle(): Promise<void>
  /** What the OS entry runs: every due or missed slot once; resolves when they have all ended. */
  runDue(): Promise<LedgerEntry[]>
  /** A schedule by name (the command line's `schedules run NAME`), run now. */
  runByName(name: string): Promise<LedgerEntry>
  ledgerOf(): Ledger
}
