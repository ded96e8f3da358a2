/**
 * The schedules service over the app's own services: presets, the report `info` (the report's
 * timezone), the export jobs (a scheduled export is a job like any other, with no dialog), the
 * OS notification of export jobs, and real timers. The command line builds the same with source `os`.
 */
import { mkdir } from 'node:fs/promises'
import type { LedgerEntry, RunSource } from '@contract'
import type { BoardFileMaker } from '../boards/board-file-types'
import type { BoardStore } from '../boards/board-store'
import type { EventHub } from '../events'
import type { ExportService } from '../exports/jobs'
import type { FileDialogs } from '../files/dialogs'
import { dialogFolders } from '../files/folder-dialogs'
import type { ServiceAdapters } from '../host-adapters'
import type { Logger } from '../logs/logger'
import type { Notices } from '../notices'
import type { PresetStore } from '../presets/preset-store'
import type { ReportService } from '../reports/service'
import type { AlertsPort } from './alerts-port'
import type { RunClock } from './runner'
import type { SchedulerClock } from './scheduler'
import { schedulesFolder } from './schedule-store'
import { runDueCommand } from './os-entries/entry-command'
import { createOsEntry } from './os-entries/installer'
import { createSchedulesService, type OsEntryPort, type RunningSchedules } from './service'

/** Real time: the timer never keeps a process alive by itself (the app's window or the web server does). */
export function systemClock(now: () => Date = () => new Date()): SchedulerClock & RunClock {
  return {
    now,
    setTimer: (delayMs, callback) => setTimeout(callback, delayMs).unref(),
    clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
  }
}

export interface AppSchedulesOptions {
  userDataDir: string
  source: RunSource
  notices: Pick<Notices, 'add'>
  events?: Pick<EventHub, 'emit'>
  log: Pick<Logger, 'warn'>
  presets: Pick<PresetStore, 'get'>
  boards: Pick<BoardStore, 'get'>
  /**
   * What draws a board as a PDF or PNG file for a board schedule (main/services/boards/board-file-types.ts);
   * null until the composition root hands one in: a board schedule then fails with a sentence.
   */
  boardFiles: BoardFileMaker | null
  reports: Pick<ReportService, 'info'>
  exports: Pick<ExportService, 'exportTo'>
  dialogs: FileDialogs
  host: Pick<ServiceAdapters, 'exportSignals' | 'background' | 'selfLaunch' | 'osScheduler'>
  now: () => Date
  /** The alerts feature's check; null until it is wired (a schedule that checks alerts then fails with a sentence). */
  alerts?: AlertsPort | null
  osEntry?: OsEntryPort | null
}

/** The OS scheduler's entry for this install, where the host says how it starts its command line. */
function osEntryOf(options: AppSchedulesOptions): OsEntryPort | null {
  const { selfLaunch: launch, osScheduler } = options.host
  if (launch === undefined || osScheduler === undefined) return null
  const { env } = launch
  return createOsEntry({
    platform: process.platform,
    homeDir: osScheduler.homeDir,
    command: runDueCommand(launch, options.userDataDir),
    run: osScheduler.run,
    now: options.now,
    ...(env.USERNAME ? { userId: env.USERDOMAIN ? `${env.USERDOMAIN}\\${env.USERNAME}` : env.USERNAME } : {}),
  })
}

export function createAppSchedules(options: AppSchedulesOptions): RunningSchedules {
  const { dialogs } = options
  return createSchedulesService({
    folder: schedulesFolder(options.userDataDir),
    source: options.source,
    notices: options.notices,
    clock: systemClock(options.now),
    presetOf: async (name) => (await options.presets.get(name)).definition,
    boardExists: async (name) => void (await options.boards.get(name)),
    boardFiles: options.boardFiles,
    async reportOffsetHours(profileId, definition) {
      const info = await options.reports.info(profileId, definition.project, definition.report, { signal: AbortSignal.timeout(30_000) })
      return info.timezone
    },
    async exportTo(schedule, format, targetOf) {
      const { job, failureCode } = await options.exports.exportTo(schedule.profileId, { kind: 'preset', name: schedule.target.name }, { format }, targetOf)
      return { fileName: job.fileName, failure: job.state === 'done' ? null : { code: failureCode, sentence: job.error ?? `${job.fileName} was not saved.` } }
    },
    alerts: options.alerts ?? null,
    async chooseFolderPath() {
      if (dialogs.chooseFolderPath) return dialogs.chooseFolderPath('Choose the folder for this schedule’s files')
      // No folder dialog (the web host, the command line): the web host's exports folder, made now so it can be checked.
      const folder = dialogFolders(options.userDataDir).exports
      await mkdir(folder, { recursive: true })
      return folder
    },
    notify: (notification) => options.host.exportSignals?.ended(notification),
    ran: (entry: LedgerEntry, failureCount: number) => options.events?.emit('onScheduleRun', { entry, failureCount }),
    osEntry: options.osEntry === undefined ? osEntryOf(options) : options.osEntry,
    backgroundSupported: options.host.background ?? false,
    pid: process.pid,
    log: options.log,
  })
}
