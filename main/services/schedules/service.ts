/**
 * Schedules, wired: the file of schedules, the ledger, the run locks, the runner and (in the
 * app) the one-timer loop. The app builds it with source `app` and starts the loop; the
 * command line builds it with source `os` and calls `runDue` once (what the OS entry runs).
 */
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import type { LedgerEntry, ReportDefinition, RunSource, Schedule, ScheduleDraft } from '@contract'
import type { BoardFileMaker } from '../boards/board-file-types'
import { AppError } from '../errors'
import type { Notices } from '../notices'
import type { AlertsPort } from './alerts-port'
import { createLedger, type Ledger } from './ledger'
import { createRunLocks } from './run-lock'
import { createRunner, unknownSchedule, type RunClock } from './runner'
import { dueRuns, lastPlannedBySchedule, nextRunOf, createSchedulerLoop, type SchedulerClock, type SchedulerLoop } from './scheduler'
import { createScheduleStore, type StoredSchedule } from './schedule-store'
import { saveDraft } from './save-draft'
import { osEntryState, scheduleView, type OsEntryPort } from './schedule-view'
import type { SchedulesService } from './types'

export type { OsEntryPort } from './schedule-view'

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
    targetOf: Parameters<Parameters<typeof createRunner>[0]['exportTo']>[2],
  ): ReturnType<Parameters<typeof createRunner>[0]['exportTo']>
  alerts: AlertsPort | null
  chooseFolderPath(): Promise<string | null>
  notify(notification: { title: string; body: string; failed: boolean }): void
  ran(entry: LedgerEntry, failureCount: number): void
  osEntry: OsEntryPort | null
  backgroundSupported: boolean
  pid: number
  log: { warn(message: string, details?: Record<string, unknown>): void }
  isAlive?: (pid: number) => boolean
  /** The computer's IANA zone; the process's own when absent (tests pin one). */
  computerTimeZone?: string
  retry?: { attempts: number; firstDelayMs: number }
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

export function createSchedulesService(options: SchedulesServiceOptions): RunningSchedules {
  const { clock } = options
  const store = createScheduleStore({ folder: options.folder, notices: options.notices, now: () => clock.now() })
  const ledger = createLedger({ folder: options.folder })
  const locks = createRunLocks({
    folder: path.join(options.folder, 'locks'),
    pid: options.pid,
    now: () => clock.now(),
    ...(options.isAlive ? { isAlive: options.isAlive } : {}),
  })
  const inFlight = new Map<string, Promise<LedgerEntry | null>>()
  let loop: SchedulerLoop | null = null

  async function failureCount(entries?: LedgerEntry[]): Promise<number> {
    const { failuresSeenAt } = await store.read()
    const seen = failuresSeenAt === null ? -Infinity : Date.parse(failuresSeenAt)
    return (entries ?? (await ledger.all())).filter((entry) => entry.outcome === 'failed' && Date.parse(entry.startedAt) > seen).length
  }

  const runner = createRunner({
    ledger,
    locks,
    clock,
    presetExists: async (name) => void (await options.presetOf(name)),
    boardExists: (name) => options.boardExists(name),
    boardFiles: options.boardFiles,
    folderPath: async (folderId) => (await store.read()).folders.find((folder) => folder.id === folderId)?.path ?? null,
    exportTo: (schedule, format, targetOf) => options.exportTo(schedule, format, targetOf),
    alerts: options.alerts,
    notify: options.notify,
    ran: (entry) =>
      void failureCount().then(
        (count) => options.ran(entry, count),
        () => undefined,
      ),
    ...(options.retry ? { retry: options.retry } : {}),
  })

  function track(id: string, running: Promise<LedgerEntry | null>): Promise<LedgerEntry | null> {
    inFlight.set(id, running)
    void running.finally(() => {
      if (inFlight.get(id) === running) inFlight.delete(id)
      void loop?.poke()
    })
    return running
  }

  /** Starts every due slot not already running here; each re-reads the ledger once it holds the lock. */
  async function startDue(): Promise<Array<Promise<LedgerEntry | null>>> {
    const [{ schedules }, entries] = await Promise.all([store.read(), ledger.all()])
    const now = clock.now()
    return dueRuns(schedules, now, lastPlannedBySchedule(entries), options.computerTimeZone)
      .filter((due) => !inFlight.has(due.schedule.id))
      .map((due) =>
        track(
          due.schedule.id,
          runner.run(due.schedule, {
            source: options.source,
            trigger: 'schedule',
            plannedAt: due.slot,
            late: due.late,
            stillDue: async () => (lastPlannedBySchedule(await ledger.all()).get(due.schedule.id) ?? -Infinity) < due.slot.getTime(),
          }),
        ),
      )
  }

  async function nextAt(): Promise<Date | null> {
    const now = clock.now()
    const slots = (await store.read()).schedules.map((schedule) => nextRunOf(schedule, now, options.computerTimeZone)).filter((slot) => slot !== null)
    return slots.length === 0 ? null : new Date(Math.min(...slots.map((slot) => slot.getTime())))
  }

  async function view(schedule: StoredSchedule, entries: LedgerEntry[], folders: Array<{ id: string; path: string }>): Promise<Schedule> {
    const running = inFlight.has(schedule.id) || (await locks.held(schedule.id))
    return scheduleView(schedule, { now: clock.now(), computerTimeZone: options.computerTimeZone, entries, folders, running })
  }

  async function findSchedule(id: string): Promise<StoredSchedule> {
    const found = (await store.read()).schedules.find((schedule) => schedule.id === id)
    if (found === undefined) throw unknownSchedule()
    return found
  }

  async function runNow(schedule: StoredSchedule): Promise<LedgerEntry> {
    const entry = await track(schedule.id, runner.run(schedule, { source: options.source, trigger: 'manual', plannedAt: null, late: false }))
    if (entry === null) throw new AppError('internal', 'The run did not start.')
    return entry
  }

  /**
   * The OS entry follows the list: with no enabled schedule left, this install's entry is removed.
   * An entry that runs another command is another data folder's or install's, and stays.
   */
  async function followOsEntry(): Promise<void> {
    if (options.osEntry === null) return
    const { schedules } = await store.read()
    if (schedules.some((schedule) => schedule.enabled)) return
    if (await options.osEntry.ownsEntry().catch(() => false))
      await options.osEntry.remove().catch((error: unknown) => options.log.warn('the OS entry could not be removed', { error: String(error) }))
  }

  return {
    async list() {
      const [document, entries] = await Promise.all([store.read(), ledger.all()])
      return {
        schedules: await Promise.all(document.schedules.map((schedule) => view(schedule, entries, document.folders))),
        osEntry: await osEntryState(options.osEntry, entries),
        failureCount: await failureCount(entries),
        keepRunningInBackground: document.keepRunningInBackground,
        backgroundSupported: options.backgroundSupported,
      }
    },

    async save(draft: ScheduleDraft) {
      const saved = await saveDraft(draft, {
        store,
        now: clock.now(),
        computerTimeZone: options.computerTimeZone,
        presetOf: options.presetOf,
        boardExists: options.boardExists,
        reportOffsetHours: options.reportOffsetHours,
      })
      void loop?.poke()
      const [document, entries] = await Promise.all([store.read(), ledger.all()])
      return view(saved, entries, document.folders)
    },

    async remove(id) {
      await store.update((document) => {
        if (!document.schedules.some((schedule) => schedule.id === id)) throw unknownSchedule()
        return { ...document, schedules: document.schedules.filter((schedule) => schedule.id !== id) }
      })
      void loop?.poke()
      await followOsEntry()
      return { id }
    },

    runNow: async (id) => runNow(await findSchedule(id)),
    ledger: (query) => ledger.query(query),

    async clearFailures() {
      await store.update((document) => ({ ...document, failuresSeenAt: clock.now().toISOString() }))
      return { failureCount: await failureCount() }
    },

    async chooseFolder() {
      const chosen = await options.chooseFolderPath()
      if (chosen === null) return null
      if (!path.isAbsolute(chosen)) throw new AppError('internal', 'The folder dialog answered a path that is not absolute.')
      let id = ''
      await store.update((document) => {
        const known = document.folders.find((folder) => folder.path === chosen)
        id = known?.id ?? randomUUID()
        return known ? document : { ...document, folders: [...document.folders, { id, path: chosen }] }
      })
      return { id, name: path.basename(chosen) || chosen }
    },

    async installEntry() {
      if (options.osEntry === null) throw new AppError('internal', 'This system has no scheduler AdOps Desk can use; schedules run while the app is open.')
      await options.osEntry.install()
      return osEntryState(options.osEntry, await ledger.all())
    },

    async removeEntry() {
      if (options.osEntry !== null) await options.osEntry.remove()
      return osEntryState(options.osEntry, await ledger.all())
    },

    async setKeepRunning(keepRunning) {
      const document = await store.update((current) => ({ ...current, keepRunningInBackground: keepRunning }))
      return { keepRunningInBackground: document.keepRunningInBackground }
    },

    async start() {
      loop ??= createSchedulerLoop({
        clock,
        check: async () => {
          await startDue()
          return { nextAt: await nextAt() }
        },
        onError: (error) => options.log.warn('the scheduler could not check the schedules', { error: String(error) }),
      })
      await loop.poke()
    },
    wake: async () => loop?.poke(),
    keepRunning: async () => (await store.read()).keepRunningInBackground,
    async idle() {
      for (;;) {
        await loop?.settled()
        if (inFlight.size === 0) {
          await loop?.settled()
          if (inFlight.size === 0) return
        }
        await Promise.all(inFlight.values())
      }
    },
    stop() {
      loop?.stop()
      loop = null
    },

    async runDue() {
      const started = await startDue()
      return (await Promise.all(started)).filter((entry) => entry !== null)
    },

    async runByName(name) {
      const found = (await store.read()).schedules.find((schedule) => schedule.name.toLowerCase() === name.trim().toLowerCase())
      if (found === undefined) throw new AppError('not_found', `There is no schedule named "${name}". Run "adops-desk schedules list" to see them.`)
      return runNow(found)
    },

    ledgerOf: () => ledger,
  }
}
