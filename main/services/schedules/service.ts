/**
 * Schedules, wired: the file of schedules, the ledger, the run locks, the runner and (in the
 * app) the one-timer loop. The app builds it with source `app` and starts the loop; the
 * command line builds it with source `os` and calls `runDue` once (what the OS entry runs).
 */
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { SCHEDULE_LIMITS, type LedgerEntry, type OsEntryState, type ReportDefinition, type RunSource, type Schedule, type ScheduleDraft } from '@contract'
import { AppError, isAppError } from '../errors'
import type { Notices } from '../notices'
import type { AlertsPort } from './alerts-port'
import { createLedger, type Ledger } from './ledger'
import { createRunLocks } from './run-lock'
import { createRunner, unknownSchedule, type RunClock } from './runner'
import { dueRuns, lastPlannedBySchedule, nextRunOf, zoneOf, createSchedulerLoop, type SchedulerClock, type SchedulerLoop } from './scheduler'
import { createScheduleStore, type StoredSchedule } from './schedule-store'
import { cadenceText, checkCadence, NEVER_FIRES } from './timing'
import type { SchedulesService } from './types'

/** The OS scheduler's entry, as the service needs it (os-entries/ implements it per platform). */
export interface OsEntryPort {
  state(): Promise<Omit<OsEntryState, 'lastRunAt'>>
  install(): Promise<void>
  remove(): Promise<void>
}

export interface SchedulesServiceOptions {
  /** `<data>/schedules`: the file of schedules, the ledger and the locks. */
  folder: string
  source: RunSource
  notices: Pick<Notices, 'add'>
  clock: SchedulerClock & RunClock
  presetOf(name: string): Promise<ReportDefinition>
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

  async function osEntryState(entries: LedgerEntry[]): Promise<OsEntryState> {
    const lastRunAt = entries.filter((entry) => entry.source === 'os').at(-1)?.startedAt ?? null
    if (options.osEntry === null)
      return { kind: null, installed: false, lastRunAt, problem: 'This system has no scheduler AdOps Desk can use; schedules run while the app is open.' }
    try {
      return { ...(await options.osEntry.state()), lastRunAt }
    } catch (error) {
      return { kind: null, installed: false, lastRunAt, problem: isAppError(error) ? error.message : 'The system scheduler could not be read.' }
    }
  }

  async function view(schedule: StoredSchedule, entries: LedgerEntry[], folders: Array<{ id: string; path: string }>): Promise<Schedule> {
    const zone = zoneOf(schedule, options.computerTimeZone)
    const own = entries.filter((entry) => entry.scheduleId === schedule.id)
    const nextRunAt = nextRunOf(schedule, clock.now(), options.computerTimeZone)
    let problem: string | null = null
    try {
      checkCadence(schedule.cadence, zone)
      if (schedule.enabled && nextRunAt === null) problem = NEVER_FIRES
    } catch (error) {
      problem = (error as Error).message
    }
    const folder = schedule.actions.export === null ? null : folders.find((known) => known.id === schedule.actions.export?.folderId)
    return {
      id: schedule.id,
      name: schedule.name,
      preset: schedule.preset,
      profileId: schedule.profileId,
      actions: {
        export:
          schedule.actions.export === null
            ? null
            : {
                format: schedule.actions.export.format,
                fileNamePattern: schedule.actions.export.fileNamePattern,
                folder: {
                  id: schedule.actions.export.folderId,
                  name: folder ? path.basename(folder.path) : 'a folder no longer known',
                  available: folder !== undefined,
                },
              },
        checkAlerts: schedule.actions.checkAlerts,
      },
      cadence: schedule.cadence,
      timezone: schedule.timezone,
      enabled: schedule.enabled,
      cadenceText: cadenceText(schedule.cadence, zone),
      nextRunAt: nextRunAt?.toISOString() ?? null,
      problem,
      lastRun: own.at(-1) ?? null,
      running: inFlight.has(schedule.id) || (await locks.held(schedule.id)),
      osLastRunAt: own.filter((entry) => entry.source === 'os').at(-1)?.startedAt ?? null,
    }
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

  /** The OS entry follows the list: with no enabled schedule left, an installed entry is removed. */
  async function followOsEntry(): Promise<void> {
    if (options.osEntry === null) return
    const { schedules } = await store.read()
    if (schedules.some((schedule) => schedule.enabled)) return
    const state = await options.osEntry.state().catch(() => null)
    if (state?.installed)
      await options.osEntry.remove().catch((error: unknown) => options.log.warn('the OS entry could not be removed', { error: String(error) }))
  }

  const invalid = (field: string, message: string) => new AppError('validation', message, { field, fields: { [field]: [message] } })

  return {
    async list() {
      const [document, entries] = await Promise.all([store.read(), ledger.all()])
      return {
        schedules: await Promise.all(document.schedules.map((schedule) => view(schedule, entries, document.folders))),
        osEntry: await osEntryState(entries),
        failureCount: await failureCount(entries),
        keepRunningInBackground: document.keepRunningInBackground,
        backgroundSupported: options.backgroundSupported,
      }
    },

    async save(draft: ScheduleDraft) {
      let definition: ReportDefinition
      try {
        definition = await options.presetOf(draft.preset)
      } catch (error) {
        if (isAppError(error) && error.code === 'not_found') throw invalid('preset', `There is no preset named "${draft.preset}". Choose a saved preset.`)
        throw error
      }
      let reportOffsetMinutes: number | null = null
      if (draft.timezone === 'report') {
        const hours = await options.reportOffsetHours(draft.profileId, definition).catch((error: unknown) => {
          throw invalid(
            'timezone',
            `The report's timezone could not be read (${isAppError(error) ? error.message : String(error)}). Choose the computer's timezone, or try again when the platform answers.`,
          )
        })
        reportOffsetMinutes = (hours ?? 0) * 60
      }
      checkCadence(
        draft.cadence,
        reportOffsetMinutes === null
          ? { kind: 'computer', ...(options.computerTimeZone ? { timeZone: options.computerTimeZone } : {}) }
          : { kind: 'offset', minutes: reportOffsetMinutes },
      )
      const now = clock.now().toISOString()
      let saved: StoredSchedule | undefined
      await store.update((document) => {
        if (draft.actions.export !== null && !document.folders.some((folder) => folder.id === draft.actions.export?.folderId))
          throw invalid('folder', 'That folder is not known. Choose the folder again.')
        const before = draft.id === undefined ? undefined : document.schedules.find((schedule) => schedule.id === draft.id)
        if (draft.id !== undefined && before === undefined) throw unknownSchedule()
        if (document.schedules.some((schedule) => schedule.id !== draft.id && schedule.name.toLowerCase() === draft.name.toLowerCase()))
          throw invalid('name', `A schedule named "${draft.name}" already exists. Choose another name.`)
        if (before === undefined && document.schedules.length >= SCHEDULE_LIMITS.schedules)
          throw invalid('name', `There are ${SCHEDULE_LIMITS.schedules} schedules already. Delete some before adding more.`)
        // A changed cadence or a schedule switched on starts counting now: slots before it are not missed runs.
        const sameTiming =
          before !== undefined && before.enabled && JSON.stringify(before.cadence) === JSON.stringify(draft.cadence) && before.timezone === draft.timezone
        saved = {
          id: before?.id ?? randomUUID(),
          name: draft.name,
          preset: draft.preset,
          profileId: draft.profileId,
          actions: draft.actions,
          cadence: draft.cadence,
          timezone: draft.timezone,
          reportOffsetMinutes,
          enabled: draft.enabled,
          activeSince: sameTiming && before ? before.activeSince : now,
          savedAt: now,
        }
        const schedules =
          before === undefined
            ? [...document.schedules, saved]
            : document.schedules.map((schedule) => (schedule.id === before.id ? (saved as StoredSchedule) : schedule))
        return { ...document, schedules }
      })
      void loop?.poke()
      const [document, entries] = await Promise.all([store.read(), ledger.all()])
      return view(saved as StoredSchedule, entries, document.folders)
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
      return osEntryState(await ledger.all())
    },

    async removeEntry() {
      if (options.osEntry !== null) await options.osEntry.remove()
      return osEntryState(await ledger.all())
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
