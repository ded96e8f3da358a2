/**
 * The schedules service as the command line builds it (what the OS entry runs): the app's
 * schedules file, ledger and locks in the same data folder, its presets, and an export service
 * of its own over each schedule's saved connection. Runs are recorded with source `os`.
 */
import { DEMO_PROFILE_ID } from '@contract'
import type { RuleStore } from '../services/alerts/rules-store'
import { checkDefinition, type AlertDataSource } from '../services/alerts/service'
import type { BoardFileMaker } from '../services/boards/board-file-types'
import type { BoardStore } from '../services/boards/board-store'
import type { Connection } from '../services/connection/connection'
import { AppError } from '../services/errors'
import { createExportService } from '../services/exports/jobs'
import type { ExportJobHistory } from '../services/exports/job-history'
import type { Notices } from '../services/notices'
import type { PresetStore } from '../services/presets/preset-store'
import { createDiskInfoStore } from '../services/reports/info-store'
import { createReportService, type ReportService } from '../services/reports/service'
import type { AlertsPort } from '../services/schedules/alerts-port'
import { createAppSchedules } from '../services/schedules/app-schedules'
import type { RunningSchedules } from '../services/schedules/service'

export interface CliSchedulesContext {
  userDataDir: string
  notices: Notices
  presets: PresetStore
  boards: Pick<BoardStore, 'get'>
  /** Draws a board schedule's file with the tiles run on the schedule's own connection; null: board runs fail with a sentence. */
  boardFiles: BoardFileMaker | null
  /** A saved connection, signed in lazily with its keychain secret. */
  connectProfile(profileId: string): Promise<Connection>
  warn(message: string): void
  /** The command line's alert machinery (the same `alerts check` runs through). */
  alerts: {
    source(connection: Connection, profileId: string): AlertDataSource
    rules: Pick<RuleStore, 'read'>
    lagHours(): Promise<number>
  }
}

/**
 * A schedule's "check alerts", on the schedule's own connection: the preset's saved rules
 * checked as `alerts check --preset` checks them. The firings are counted in the ledger; the
 * list of fired alerts is the app's file (it keeps it cached while it runs), so nothing writes it from here.
 */
function cliAlertsPort(context: CliSchedulesContext, connectionOf: (profileId: string) => Promise<Connection>): AlertsPort {
  return {
    async checkPresetAlerts(name, { profileId, signal, now }) {
      if (profileId === undefined)
        throw new AppError('validation', 'This schedule names no connection, so its alerts could not be checked. Open it in the app and choose one.')
      const preset = await context.presets.get(name)
      const { rules } = await context.alerts.rules.read(preset.name)
      const at = now ?? new Date()
      const checked = await checkDefinition(context.alerts.source(await connectionOf(profileId), profileId), {
        profileId,
        preset: preset.name,
        definition: preset.definition,
        rules,
        now: at,
        lagHours: await context.alerts.lagHours(),
        osOffsetMinutes: -at.getTimezoneOffset(),
        signal: signal ?? new AbortController().signal,
      })
      return checked.result
    },
  }
}

/**
 * The export history of the command line's own jobs, in memory: the app keeps its history file
 * cached while it runs, so a second process writing it would lose one side's lines. The ledger says what each run wrote.
 */
function memoryHistory(): ExportJobHistory {
  let value = { jobs: [] as Parameters<ExportJobHistory['write']>[0]['jobs'] }
  return {
    read: async () => value,
    update: async (change) => (value = await change(value)),
    write: async (next) => void (value = next),
    remove: async () => void (value = { jobs: [] }),
  }
}

export function createCliSchedules(context: CliSchedulesContext): RunningSchedules {
  const connections = new Map<string, Promise<Connection>>()
  const connectionOf = (profileId: string): Promise<Connection> => {
    if (profileId === DEMO_PROFILE_ID)
      return Promise.reject(new AppError('not_found', 'The demo workspace runs only inside the app, so this schedule runs only while AdOps Desk is open.'))
    let connection = connections.get(profileId)
    if (connection === undefined) {
      connection = context.connectProfile(profileId)
      connections.set(profileId, connection)
    }
    return connection
  }
  const reports: ReportService = createReportService({
    reportingOf: async (profileId) => (await connectionOf(profileId)).reporting,
    store: createDiskInfoStore(context.userDataDir, context.notices),
  })
  const exports = createExportService({
    reportingOf: async (profileId) => (await connectionOf(profileId)).reporting,
    infoOf: (profileId, project, report, signal) => reports.info(profileId, project, report, { signal }),
    presetOf: async (name) => (await context.presets.get(name)).definition,
    // Scheduled exports name their own file; nothing here asks.
    dialog: { chooseSavePath: async () => null },
    jobHistory: memoryHistory(),
    events: { emit: () => undefined },
    notices: context.notices,
  })
  return createAppSchedules({
    userDataDir: context.userDataDir,
    source: 'os',
    notices: context.notices,
    log: { warn: (message) => context.warn(message) },
    presets: context.presets,
    boards: context.boards,
    boardFiles: context.boardFiles,
    reports,
    exports,
    dialogs: { chooseSavePath: async () => null, chooseOpenPaths: async () => [] },
    // No desktop here: a failure shows as the app's badge and in the ledger; the command's exit code says it too.
    host: {},
    now: () => new Date(),
    alerts: cliAlertsPort(context, connectionOf),
    osEntry: null,
  })
}
