/**
 * Schedules, wired: the file of schedules, the ledger, the run locks, the runner and (in the
 * app) the one-timer loop. The app builds it with source `app` and starts the loop; the
 * command line builds it with source `os` and calls `runDue` once (what the OS entry runs).
 */
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import type { LedgerEntry, Schedule, ScheduleDraft } from '@contract'
import { AppError } from '../errors'
import { createLedger } from './ledger'
import { createRunLocks } from './run-lock'
import { createRunner, unknownSchedule, type RunReport } from './runner'
import { dueRuns, lastPlannedBySchedule, nextRunOf, createSchedulerLoop, type SchedulerLoop } from './scheduler'
import { createScheduleStore, type StoredSchedule } from './schedule-store'
import { saveDraft } from './save-draft'
import { withScheduleBounds } from './schedule-bounds'
import { createSlotMemory } from './slot-memory'
import { osEntryState, scheduleView } from './schedule-view'
import type { RunningSchedules, SchedulesServiceOptions } from './service-options'

export type { OsEntryPort } from './schedule-view'
export type { RunningSchedules, SchedulesServiceOptions } from './service-options'

export function createSchedulesService(options: SchedulesServiceOptions): RunningSchedules {
  const { clock } = options
  const store = createScheduleStore({ folder: options.folder, notices: options.notices, now: () => clock.now() })
  const ledger = createLedger({ folder: options.folder, ...(options.ledgerFs ? { fs: options.ledgerFs } : {}) })
  const locks = createRunLocks({
    folder: path.join(options.folder, 'locks'),
    pid: options.pid,
    now: () => clock.now(),
    ...(options.isAlive ? { isAlive: options.isAlive } : {}),
    ...(options.processIdentity ? { identity: options.processIdentity } : {}),
  })
  // The first run of each schedule going on here (a Run now refused beside it must not hide it from
  // the loop, which would start its slot again), and every run, for idle().
  const inFlight = new Map<string, Promise<LedgerEntry | null>>()
  const runs = new Set<Promise<LedgerEntry | null>>()
  const memory = createSlotMemory()
  // Saves go through the bounds on how many schedules there are and how often they run together.
  const boundedStore = withScheduleBounds(store)
  let loop: SchedulerLoop | null = null

  /** Failed runs since the badge was cleared: the ledger's (`recorded`, read now when absent) and those it refused. */
  async function failureCount(recorded?: LedgerEntry[]): Promise<number> {
    return memory.failedSince(recorded ?? (await ledger.all()), (await store.read()).failuresSeenAt)
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
    ran(report) {
      memory.ended(report, clock.now())
      if (!report.recorded) options.log.warn('a schedule run could not be written to the ledger', { schedule: report.entry.scheduleId })
      void failureCount().then(
        (count) => options.ran(report.entry, count),
        () => undefined,
      )
    },
    ...(options.retry ? { retry: options.retry } : {}),
  })

  /** A run going on here; once it ends the loop looks again (its slot is handled in memory even when the ledger refused it). */
  function track(id: string, running: Promise<RunReport | null>): Promise<LedgerEntry | null> {
    // The runner never rejects; were it to, the run still ends here, logged, never an unhandled rejection.
    const ended = running
      .catch((error: unknown) => void options.log.warn('a schedule run ended with an error', { error: String(error) }))
      .then((report) => {
        if (inFlight.get(id) === ended) inFlight.delete(id)
        runs.delete(ended)
        void loop?.poke()
        return report?.entry ?? null
      })
    if (!inFlight.has(id)) inFlight.set(id, ended)
    runs.add(ended)
    return ended
  }

  const lastPlanned = (entries: LedgerEntry[]) => memory.lastPlanned(lastPlannedBySchedule(entries))

  /** Starts every due slot not already running here; each re-reads the ledger once it holds the lock. */
  async function startDue(): Promise<Array<Promise<LedgerEntry | null>>> {
    const [{ schedules }, entries] = await Promise.all([store.read(), ledger.all()])
    const now = clock.now()
    return dueRuns(schedules, now, lastPlanned(entries), options.computerTimeZone)
      .filter((due) => !inFlight.has(due.schedule.id) && !memory.backedOff(due.schedule.id, now))
      .map((due) =>
        track(
          due.schedule.id,
          runner.run(due.schedule, {
            source: options.source,
            trigger: 'schedule',
            plannedAt: due.slot,
            late: due.late,
            stillDue: async () => (lastPlanned(await ledger.all()).get(due.schedule.id) ?? -Infinity) < due.slot.getTime(),
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
      const [document, recorded] = await Promise.all([store.read(), ledger.all()])
      const entries = memory.withUnrecorded(recorded)
      return {
        schedules: await Promise.all(document.schedules.map((schedule) => view(schedule, entries, document.folders))),
        osEntry: await osEntryState(options.osEntry, entries),
        failureCount: await failureCount(recorded),
        keepRunningInBackground: document.keepRunningInBackground,
        backgroundSupported: options.backgroundSupported,
      }
    },

    async save(draft: ScheduleDraft) {
      const saved = await saveDraft(draft, {
        store: boundedStore,
        now: clock.now(),
        computerTimeZone: options.computerTimeZone,
        presetOf: options.presetOf,
        boardExists: options.boardExists,
        reportOffsetHours: options.reportOffsetHours,
      })
      void loop?.poke()
      const [document, recorded] = await Promise.all([store.read(), ledger.all()])
      return view(saved, memory.withUnrecorded(recorded), document.folders)
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
        if (runs.size === 0) {
          await loop?.settled()
          if (runs.size === 0) return
        }
        await Promise.all(runs)
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
