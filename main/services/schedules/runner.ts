/**
 * One run of one schedule, from the lock to its ledger line: the preset is read now (so a
 * relative range like "last 7 days" resolves at run time), the file is exported to the
 * schedule's folder under its pattern, the alerts are checked, network failures are tried
 * again a bounded number of times with backoff, anything else fails at once with a sentence.
 * A failure notifies; whatever happens the run ends with its line (the run's outcome even when
 * the ledger refuses it), it never rejects, and the next run still comes.
 */
import { randomUUID } from 'node:crypto'
import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import type { ErrorCode, ExportFormat, LedgerEntry, ResolvedRange, RunSource, ScheduleFileFormat } from '@contract'
import { AppError, isAppError, toErrorShape } from '../errors'
import type { BoardFileMaker } from '../boards/board-file-types'
import { safeBaseName, withExtension } from '../files/save-target'
import type { AlertsPort } from './alerts-port'
import { writeBoardFile } from './board-action'
import type { Ledger } from './ledger'
import { checkFolder, lockFailureSentence, RunFailure, unrecordedSentence } from './run-failure'
import type { RunLocks } from './run-lock'
import type { StoredSchedule } from './schedule-store'

/** Failures worth trying again: the network, a timeout, the platform down or busy. */
export const RETRYABLE_CODES: readonly string[] = ['network', 'timeout', 'server', 'throttled'] satisfies ErrorCode[]
export const RETRY_POLICY = { attempts: 3, firstDelayMs: 30_000 } as const

export interface RunClock {
  now(): Date
  /** Waits `ms` (the retry backoff): a timer in the app, the fake clock in tests. */
  sleep(ms: number): Promise<void>
}

export interface RunnerDependencies {
  ledger: Ledger
  locks: RunLocks
  clock: RunClock
  /** Throws `not_found` when the preset was deleted. */
  presetExists(name: string): Promise<void>
  /** Throws `not_found` when the board was renamed or deleted. */
  boardExists(name: string): Promise<void>
  /** Draws a board as one file; null where this build cannot (a board run then fails with a sentence). */
  boardFiles: BoardFileMaker | null
  /** The folder's path, or null when the schedule names a folder main does not know. */
  folderPath(folderId: string): Promise<string | null>
  exportTo(
    schedule: StoredSchedule,
    format: ExportFormat,
    targetOf: (planned: { range: ResolvedRange; preset: string | null }) => Promise<string>,
  ): Promise<{ fileName: string; failure: { code: string | null; sentence: string } | null }>
  alerts: AlertsPort | null
  notify(notification: { title: string; body: string; failed: boolean }): void
  /** A run ended (the app sends `onScheduleRun`), recorded in the ledger or not. */
  ran(report: RunReport): void
  retry?: { attempts: number; firstDelayMs: number }
  fs?: Pick<typeof nodeFs, 'access' | 'stat'>
}

export interface RunRequest {
  source: RunSource
  trigger: 'schedule' | 'manual'
  plannedAt: Date | null
  late: boolean
  /**
   * A scheduled slot: checked again once the lock is decided (the other process may have run the
   * slot meanwhile: then no line). A slot still due while a live run holds the lock is a
   * `skipped` line, so the ledger (and run-due) says why it did not run.
   */
  stillDue?: () => Promise<boolean>
}

/** What a run ended with: its line, whether the ledger took it, and whether the data folder refused the lock or the line. */
export interface RunReport {
  entry: LedgerEntry
  recorded: boolean
  storageFailed: boolean
}

export const SKIPPED_SENTENCE = 'Another run of this schedule was still going (in the app or started by the system scheduler), so this one did not start.'

const isoDate = (date: Date) => date.toISOString().slice(0, 10)

/** The file name a pattern gives: tokens replaced, made a safe base name, the format's extension added. */
export function fileNameOf(pattern: string, values: { preset: string; start: string; end: string; date: string }, format: ScheduleFileFormat): string {
  const named = pattern.replace(/\{(preset|start|end|date)\}/g, (_token, key: keyof typeof values) => values[key])
  return withExtension(safeBaseName(named), format)
}

export function createRunner(dependencies: RunnerDependencies) {
  const { ledger, locks, clock } = dependencies
  const fs = dependencies.fs ?? nodeFs
  const retry = dependencies.retry ?? RETRY_POLICY

  type Outcome = { fileName: string | null; alertsFired: number | null; missingTiles: LedgerEntry['missingTiles'] }

  /** The folder the schedule writes into, checked now: known, there, writable. */
  async function folderOf(folderId: string): Promise<string> {
    const folder = await dependencies.folderPath(folderId)
    if (folder === null)
      throw new RunFailure('The folder of this schedule is not known any more, so no file was written. Choose a folder for it again.', 'storage')
    await checkFolder(folder, fs)
    return folder
  }

  async function presetActions(schedule: StoredSchedule, preset: string): Promise<Outcome> {
    try {
      await dependencies.presetExists(preset)
    } catch (error) {
      if (isAppError(error) && error.code === 'not_found')
        throw new RunFailure(
          `The preset "${preset}" was deleted, so this schedule has nothing to run. Choose another preset for it, or delete the schedule.`,
          'not_found',
        )
      throw error
    }
    let fileName: string | null = null
    if (schedule.actions.export !== null) {
      const { folderId, fileNamePattern, format } = schedule.actions.export
      if (format === 'pdf' || format === 'png')
        throw new RunFailure(`A preset is not written as ${format.toUpperCase()}. Choose XLSX, CSV or TSV for this schedule.`, null)
      const folder = await folderOf(folderId)
      const runDate = isoDate(clock.now())
      const result = await dependencies.exportTo(schedule, format, async ({ range }) =>
        path.join(folder, fileNameOf(fileNamePattern, { preset, start: range.start, end: range.end, date: runDate }, format)),
      )
      if (result.failure !== null) throw new RunFailure(result.failure.sentence, result.failure.code)
      fileName = result.fileName
    }
    let alertsFired: number | null = null
    if (schedule.actions.checkAlerts) {
      if (dependencies.alerts === null) throw new RunFailure('Alert checks are not available in this version of AdOps Desk, so none were checked.', null)
      const checked = await dependencies.alerts.checkPresetAlerts(preset, { now: clock.now(), profileId: schedule.profileId })
      alertsFired = checked.firings.length
    }
    return { fileName, alertsFired, missingTiles: null }
  }

  async function boardActions(schedule: StoredSchedule, board: string): Promise<Outcome> {
    const exported = schedule.actions.export
    if (exported === null || (exported.format !== 'pdf' && exported.format !== 'png'))
      throw new RunFailure('This board schedule names no PDF or PNG file to write. Edit it and choose the format and folder.', null)
    const written = await writeBoardFile(
      { board, format: exported.format, profileId: schedule.profileId, fileNamePattern: exported.fileNamePattern, runDate: isoDate(clock.now()) },
      { boardExists: dependencies.boardExists, boardFiles: dependencies.boardFiles, folderOf: () => folderOf(exported.folderId) },
    )
    return { fileName: written.fileName, alertsFired: null, missingTiles: written.missing }
  }

  const actions = (schedule: StoredSchedule): Promise<Outcome> =>
    schedule.target.kind === 'board' ? boardActions(schedule, schedule.target.name) : presetActions(schedule, schedule.target.name)

  /** Runs the schedule's actions, trying network failures again; never throws. */
  async function attempt(schedule: StoredSchedule): Promise<Outcome & { error: string | null; attempts: number }> {
    for (let attempts = 1; ; attempts += 1) {
      try {
        return { ...(await actions(schedule)), error: null, attempts }
      } catch (error) {
        const code = error instanceof RunFailure ? error.code : isAppError(error) ? error.code : null
        const sentence = error instanceof RunFailure ? error.sentence : toErrorShape(error).message
        if (code !== null && RETRYABLE_CODES.includes(code) && attempts < retry.attempts) {
          await clock.sleep(retry.firstDelayMs * 2 ** (attempts - 1))
          continue
        }
        const tried = attempts > 1 ? ` (tried ${attempts} times)` : ''
        return { fileName: null, alertsFired: null, missingTiles: null, error: `${sentence}${tried}`, attempts }
      }
    }
  }

  /** The line written (or, when the ledger refuses it, kept as the run's outcome), notified and sent as an event. */
  async function finish(written: LedgerEntry, lockRefused: boolean): Promise<RunReport> {
    let entry = written
    let recorded = true
    try {
      await ledger.append(entry)
    } catch (error) {
      recorded = false
      entry = { ...entry, outcome: 'failed', error: unrecordedSentence(entry, error) }
    }
    const report = { entry, recorded, storageFailed: lockRefused || !recorded }
    // Told first, and neither telling may throw out of the run: its slot must count as handled whatever a notifier does.
    const tell = (what: () => void) => {
      try {
        what()
      } catch {
        // A notification that could not be shown leaves the run's outcome as it is.
      }
    }
    tell(() => dependencies.ran(report))
    if (entry.outcome === 'failed') tell(() => dependencies.notify({ title: `Schedule failed: ${entry.scheduleName}`, body: entry.error ?? '', failed: true }))
    return report
  }

  /** A scheduled slot's own check once the lock is decided; a failure to read the ledger counts as still due (the run decides). */
  const stillDue = (request: RunRequest): Promise<boolean> => (request.stillDue === undefined ? Promise.resolve(true) : request.stillDue().catch(() => true))

  return {
    /**
     * One run, never rejecting: a lock or a ledger line the data folder refuses is the run's
     * outcome (failed, with a sentence), reported like any failure. Null when a scheduled slot
     * was already handled by another process (see `stillDue`).
     */
    async run(schedule: StoredSchedule, request: RunRequest): Promise<RunReport | null> {
      const startedAt = clock.now()
      const base = {
        id: randomUUID(),
        scheduleId: schedule.id,
        scheduleName: schedule.name,
        target: schedule.target,
        source: request.source,
        trigger: request.trigger,
        plannedAt: request.plannedAt?.toISOString() ?? null,
        startedAt: startedAt.toISOString(),
        late: request.late,
      }
      const notRun = { durationMs: 0, fileName: null, alertsFired: null, missingTiles: null, attempts: 0 }
      let lock: Awaited<ReturnType<RunLocks['acquire']>>
      try {
        lock = await locks.acquire(schedule.id)
      } catch (error) {
        return finish({ ...base, ...notRun, outcome: 'failed', error: lockFailureSentence(error) }, true)
      }
      if (!(await stillDue(request))) {
        await lock?.release().catch(() => undefined)
        return null
      }
      if (lock === null) return finish({ ...base, ...notRun, outcome: 'skipped', error: SKIPPED_SENTENCE }, false)
      const result = await attempt(schedule)
      const entry: LedgerEntry = {
        ...base,
        durationMs: clock.now().getTime() - startedAt.getTime(),
        outcome: result.error === null ? 'ok' : 'failed',
        ...result,
      }
      // A lock the data folder will not let go of stays until its holder is gone or past the run limit: storage trouble, backed off like a refused line.
      const released = await lock.release().then(
        () => true,
        () => false,
      )
      return finish(entry, !released)
    },
  }
}

export type Runner = ReturnType<typeof createRunner>

/** An AppError for a schedule that cannot be found (deleted meanwhile). */
export const unknownSchedule = () => new AppError('not_found', 'That schedule is not in the list any more. It may have been deleted.')
