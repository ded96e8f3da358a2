import { lazy } from '../../common/lazy'
import { AppError } from '../services/errors'
import { alertsFolder, createRuleStore, type RuleStore } from '../services/alerts/rules-store'
import type { AlertDataSource } from '../services/alerts/service'
import { createNotices } from '../services/notices'
import { createProfileStore, type ProfileStore } from '../services/profiles/profile-store'
import type { ConnectionSettings, Credentials } from '../services/connection/settings'
import { loadKeytar, type Keychain } from '../services/secrets/keychain'
import { createSecretStore } from '../services/secrets/secret-store'
import { createHttpClient, type HttpClient, type HttpClientOptions } from '../services/http/client'
import { createConnection, type Connection } from '../services/connection/connection'
import { createRunHistoryStore, runHistoryFolder } from '../services/run-history/run-history-store'
import { createRequestCapture, recordRuns, type RecordedReportService } from '../services/run-history/record-runs'
import { createPresetStore, presetsFolder, type PresetStore } from '../services/presets/preset-store'
import { boardsFolder, createBoardStore, type BoardStore } from '../services/boards/board-store'
import type { BoardFileMaker } from '../services/boards/board-file-types'
import { createDiskInfoStore, type InfoStore, type StoredInfo } from '../services/reports/info-store'
import { createReportService } from '../services/reports/service'
import { createResultCache, resultsFolder } from '../services/results/result-cache'
import { createSettingsStore } from '../services/workspace/settings-store'
import type { RunningSchedules } from '../services/schedules/service'
import { createBulkApplier } from '../services/bulk/apply'
import { platformDependents } from '../services/entities/dependents'
import type { BulkApplier, ChangeLog } from '../services/bulk/apply-types'
import { createJournalStore, journalsFolder } from '../services/bulk/journal'
import { changesFolder, createChangeLog } from '../services/changes/change-log'
import { cliEntityWrites, type CliEntityWrites } from './entity-writes'

/** What the commands use: the app's profile store, keychain and presets, and connections over one HTTP client. */
export interface CliServices {
  profiles: ProfileStore
  presets: PresetStore
  boards: BoardStore
  connect(settings: ConnectionSettings, credentials: () => Promise<Credentials>): Connection
  /**
   * The app's report service over a connection. With a saved connection's id its runs are
   * recorded as the app records them (history, saved result, `info` kept), so a preset run by
   * cron shows in the app; a connection made from flags leaves nothing behind.
   */
  reports(connection: Connection, profileId: string | null): Pick<RecordedReportService, 'run' | 'audience'>
  /**
   * Boards drawn as PDF or PNG (`boards export`): kept results from the app's results folder under
   * `profileId`, runs over the connection `connect` makes, only when a tile runs (`--kept` never connects).
   */
  boardFiles(connect: () => Promise<Connection>, profileId: string | null): BoardFileMaker
  /**
   * The app's schedules, run from here with source `os` (`schedules run-due`, what the OS entry calls). Loaded
   * when asked for (croner, the export jobs), not at every start. Optional so test doubles may leave it out.
   */
  schedules?(): Promise<RunningSchedules>
  /** What an alert check runs through: the report runner over a connection, not recorded as a run. */
  alertSource(connection: Connection, profileId: string | null): AlertDataSource
  /** The app's alert rules, by preset. */
  alertRules: RuleStore
  /** The app's data-lag setting, in hours. */
  alertLagHours(): Promise<number>
  now(): Date
  /** The app's change log (per connection, in the same data folder), so writes made here show in the app's log. */
  changeLog: ChangeLog
  /** Single writes (`entities create/update/delete`) through the app's entity service: each one recorded in the change log. */
  entities(connection: Connection): CliEntityWrites
  /** The app's bulk applier over this connection: the same journals, so an interrupted apply is resumed by either. */
  bulk(connection: Connection): BulkApplier
  /** Waits for what runs recorded, then releases the connection pool. */
  close(): Promise<void>
}

export interface CliServicesContext {
  userDataDir: string
  keychainService: string
  /** For things main would show as notices (a corrupt profiles file moved aside). */
  warn: (message: string) => void
}

export type CliServicesFactory = (context: CliServicesContext) => CliServices

export interface CliServicesOverrides {
  openKeychain?: () => Promise<Keychain>
  http?: HttpClientOptions
  now?: () => number
}

export function createCliServices(context: CliServicesContext, overrides: CliServicesOverrides = {}): CliServices {
  const notices = createNotices()
  notices.subscribe((notice) => context.warn(notice.message))
  const secrets = createSecretStore({
    openKeychain: overrides.openKeychain ?? loadKeytar,
    serviceName: context.keychainService,
    userDataDir: context.userDataDir,
  })
  const profiles = createProfileStore({ userDataDir: context.userDataDir, secrets, notices })
  const presets = createPresetStore({ folder: presetsFolder(context.userDataDir), notices })
  const now = () => new Date(overrides.now?.() ?? Date.now())
  // Made on first use: listing profiles needs no connection pool.
  let http: HttpClient | null = null
  const flushes: Array<() => Promise<void>> = []
  const alertRules = createRuleStore({ folder: alertsFolder(context.userDataDir), notices, now })
  const alertLagHours = async () => (await createSettingsStore(context.userDataDir, notices).read()).alertLagHours
  const alertSource = (connection: Connection, profileId: string | null): AlertDataSource => {
    const service = createReportService({
      reportingOf: async () => connection.reporting,
      store: profileId === null ? memoryInfoStore() : createDiskInfoStore(context.userDataDir, notices),
      now,
    })
    return {
      infoOf: (id, project, report, signal) => service.info(id, project, report, { signal }),
      // Every point: a check judges each bucket, it does not draw a picture.
      runChart: (id, definition, signal) => service.run(id, definition, { signal, pointBudget: Number.MAX_SAFE_INTEGER }),
    }
  }
  const changeLog = createChangeLog({ folder: changesFolder(context.userDataDir) })
  const boards = createBoardStore({ folder: boardsFolder(context.userDataDir), notices, now })
  const services: CliServices = {
    profiles,
    presets,
    boards,
    boardFiles(connect, profileId) {
      const reportsNow = lazy(() => connect().then((connection) => services.reports(connection, profileId)))
      const kept = createResultCache({ folder: resultsFolder(context.userDataDir), limitBytes: async () => Number.MAX_SAFE_INTEGER, notices })
      // The page layout and drawing load when a board is drawn, not at every start of the command line.
      const maker = lazy(() =>
        import('../services/boards/board-file-maker').then(({ createBoardFileMaker }) =>
          createBoardFileMaker({
            board: (name) => boards.get(name),
            presetDefinition: async (name) => (await presets.get(name)).definition,
            kept: (id, kind, definition, preset) => kept.get(id, kind, definition, preset),
            run: async (id, definition, options) => (await reportsNow()).run(id, definition, options),
            audience: async (id, definition, options) => (await reportsNow()).audience(id, definition, options),
            connectionName: async (id) => (id === null ? 'a connection given by flags' : ((await profiles.find(id))?.name ?? id)),
            now,
          }),
        ),
      )
      return { make: async (request, signal) => (await maker()).make(request, signal) }
    },
    now,
    changeLog,
    entities: (connection) => cliEntityWrites(connection, changeLog, now),
    bulk: (connection) =>
      createBulkApplier({
        workflowFor: async () => connection.workflow,
        journals: createJournalStore({ folder: journalsFolder(context.userDataDir) }),
        changeLog,
        now,
        // A 406 on a delete names its dependents, as the app does; listed from the platform, the command line keeps no lists.
        explainDependents: platformDependents(connection.workflow),
      }),
    alertRules,
    alertLagHours,
    alertSource,
    connect(settings, credentials) {
      http ??= createHttpClient(overrides.http)
      return createConnection({ settings, credentials, http, ...(overrides.now === undefined ? {} : { now: overrides.now }) })
    },
    reports(connection, profileId) {
      const capture = createRequestCapture()
      const service = createReportService({
        reportingOf: async () => capture.wrap(connection.reporting),
        store: profileId === null ? memoryInfoStore() : createDiskInfoStore(context.userDataDir, notices),
      })
      if (profileId === null) {
        return {
          run: (id, definition, { signal, pointBudget }) => service.run(id, definition, { signal, ...(pointBudget === undefined ? {} : { pointBudget }) }),
          audience: (id, definition, { signal }) => service.audience(id, definition, { signal }),
        }
      }
      const settings = createSettingsStore(context.userDataDir, notices)
      const recorded = recordRuns(service, {
        cache: createResultCache({
          folder: resultsFolder(context.userDataDir),
          limitBytes: async () => (await settings.read()).resultCacheMegabytes * 1024 * 1024,
          notices,
        }),
        runHistory: createRunHistoryStore({ folder: runHistoryFolder(context.userDataDir), notices }),
        capture,
        notices,
        connectionName: async (id) => (await profiles.find(id))?.name ?? id,
      })
      flushes.push(() => recorded.flush())
      return recorded
    },
    async schedules() {
      const { createCliSchedules } = await import('./schedules-services')
      const connectProfile = async (profileId: string): Promise<Connection> => {
        const stored = await profiles.find(profileId)
        if (stored === null)
          throw new AppError('not_found', 'The connection of this schedule was deleted. Open the schedule in the app and choose a connection.')
        http ??= createHttpClient(overrides.http)
        const { baseUrl, authUrl, reportUrl, serviceId, reportServiceId } = stored
        return createConnection({
          settings: { baseUrl, authUrl, reportUrl, serviceId, reportServiceId },
          credentials: () => profiles.credentials(profileId),
          http,
          ...(overrides.now === undefined ? {} : { now: overrides.now }),
        })
      }
      return createCliSchedules({
        userDataDir: context.userDataDir,
        notices,
        presets,
        boards,
        // A board schedule runs its tiles on the schedule's own connection (the request's profileId).
        boardFiles: {
          make: (request, signal) => {
            const profileId = request.profileId
            if (profileId === null) throw new AppError('not_found', 'This schedule names no connection. Open it in the app and choose one.')
            return services.boardFiles(() => connectProfile(profileId), profileId).make(request, signal)
          },
        },
        warn: context.warn,
        alerts: { source: alertSource, rules: alertRules, lagHours: alertLagHours },
        connectProfile,
      })
    },
    async close() {
      await Promise.all(flushes.map((flush) => flush()))
      await changeLog.close()
      await http?.close()
    },
  }
  return services
}

/** `info` for one command's runs only: a connection made from flags has no id to keep it under. */
function memoryInfoStore(): InfoStore {
  const entries = new Map<string, StoredInfo>()
  const keyOf = (project: string, report: string) => JSON.stringify([project, report])
  return {
    read: async (_profileId, project, report) => entries.get(keyOf(project, report)) ?? null,
    write: async (_profileId, entry) => void entries.set(keyOf(entry.project, entry.report), entry),
    list: async () => [...entries.values()].map(({ project, report, fetchedAt }) => ({ project, report, fetchedAt })),
    removeProfile: async () => entries.clear(),
  }
}
