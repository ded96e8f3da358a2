/**
 * Builds the services, each from its dependencies, and registers each one's teardown in the
 * lifetime it is given as it is built. It is not the composition root: main/runtime.ts is (it
 * owns the lifetime, adds handlers and events, and closes it); tests and benches call this alone.
 */
import path from 'node:path'
import { DEMO_PROFILE_ID } from '@contract'

import { toDisposable, type DisposableStore } from './lifecycle/disposables'
import { createAppEntities } from './bulk/app-bulk'
import { createDraftsStore } from './entities/drafts-store'

import { createMirrorStore } from './entities/mirror-store'
import { createEventHub } from './events'
import { createAnalysis } from './analysis/analysis'
import { ENGINE_WARM_UP_DELAY_MS, loadEngine } from './analysis/engine'
import { createChartFiles } from './exports/chart-files'
import { createExportJobHistory, exportJobHistoryFile } from './exports/job-history'
import { createAppAlertWatch, createAppAlerts, schedulesAlertsPort } from './alerts/app-alerts'
import { seedDemoAlerts, seedingOnStart } from './alerts/demo-seed'
import { alertsFolder, createRuleStore } from './alerts/rules-store'

import { createExportService } from './exports/jobs'
import { createAppDesk } from './bulk/app-desk'
import { createFolderDialogs } from './files/folder-dialogs'
import { createHttpClient } from './http/client'
import { createErrorReporter } from './logs/error-reporter'
import { createLogFile } from './logs/log-file'
import { createLogger } from './logs/logger'
import { createNotices } from './notices'
import { createProfileStore } from './profiles/profile-store'
import { createCancellationRegistry } from './cancellation'
import { createDiskInfoStore } from './reports/info-store'
import { createReportService } from './reports/service'
import { createRunHistoryStore, runHistoryFolder } from './run-history/run-history-store'
import { createRequestCapture, recordRuns } from './run-history/record-runs'
import { createRequestCopier } from './presets/api-request'
import { createAppBoards } from './boards/app-boards'
import { createPresetStore, presetsFolder } from './presets/preset-store'
import { createPresetTransfer } from './presets/transfer'
import { createAppSchedules } from './schedules/app-schedules'

import { createResultCache, resultsFolder } from './results/result-cache'
import { createBoardFileMaker } from './boards/board-file-maker'
import { createBoardPages } from './boards/board-file-save'
import { createSecretStore } from './secrets/secret-store'
import { createSettingsStore } from './workspace/settings-store'
import { createThemeService } from './workspace/theme'
import type { Environment, Services, ServicesOptions } from './services-types'
import { createWorkspace } from './workspace/workspace'

export type { Environment, Services, ServicesOptions }

/**
 * Builds the services. What each holds (sockets, the demo server, the log file, subscriptions)
 * is added to `lifetime` right after it is built, so disposing the lifetime releases it in the
 * reverse order: jobs stop while their connections still exist, the log is flushed last.
 */
export function createServices(options: ServicesOptions, lifetime: DisposableStore): Services {
  const { host } = options
  // Notices reach the page: a path in one is shown relative to the data folder, or as a file name.
  const notices = createNotices(undefined, { appFolder: options.userDataDir })
  const events = createEventHub()
  const logsDir = options.logsDir ?? path.join(options.userDataDir, 'logs')
  const log = createLogger({
    file: createLogFile({ folder: logsDir, onError: (error) => console.warn(`AdOps Desk could not write its log in ${logsDir}: ${String(error)}`) }),
  })
  lifetime.add(
    toDisposable(async () => {
      log.info('AdOps Desk stopped')
      await log.flush()
    }),
  )
  // What the user is told without asking (a file moved aside, a keychain entry left behind) is worth a line too.
  lifetime.add(toDisposable(notices.subscribe((notice) => (notice.level === 'info' ? log.info : log.warn)(`notice: ${notice.message}`, notice.details))))
  const errors = createErrorReporter({ log, notices })
  const secrets = createSecretStore({ openKeychain: host.openKeychain, serviceName: options.keychainServiceName, userDataDir: options.userDataDir })
  const profiles = createProfileStore({ userDataDir: options.userDataDir, secrets, notices, ...(options.now ? { now: options.now } : {}) })
  const settings = createSettingsStore(options.userDataDir, notices)
  const http = createHttpClient({
    ...options.http,
    onRetry(event) {
      // A read waiting out a rate limit: tell the user why nothing is happening, and for how long.
      if (event.statusCode === 429) events.emit('onThrottled', { profileId: null, waitSeconds: Math.ceil(event.delayMs / 1000), url: event.url })
      options.http?.onRetry?.(event)
    },
  })
  lifetime.add(toDisposable(() => http.close()))
  // Set below once the alert rules exist: the demo's first start saves its alert preset (alerts/demo-seed.ts).
  let demoStarted = async (): Promise<void> => undefined
  // A secret read for a sign-in is kept out of the log even where nothing names it a secret.
  const workspace = createWorkspace({
    profiles,
    settings,
    http,
    startSandbox: seedingOnStart(options.startSandbox, () => demoStarted()),
    onCredentials: (credentials) => log.addSecret(credentials.method === 'password' ? credentials.password : credentials.token),
  })
  lifetime.add(toDisposable(() => workspace.close()))
  const theme = createThemeService({ settings, events, system: host.systemTheme ?? null })
  lifetime.add(toDisposable(() => theme.close()))
  const mirrors = createMirrorStore(options.userDataDir, notices)
  // The page never names a path: files go where main's dialog says, or (web host) into its exports folder.
  const dialogs = host.dialogs ?? createFolderDialogs(options.userDataDir)
  const { entities, changes, bulk } = createAppEntities({ userDataDir: options.userDataDir, workspace, mirrors, events, saveDialog: dialogs, now: options.now })
  // Disposed after everything built below that writes to it.
  lifetime.add(toDisposable(() => changes.close()))
  const drafts = createDraftsStore(options.userDataDir, notices, options.now)
  // A deleted connection takes its local lists and drafts with it.
  lifetime.add(toDisposable(profiles.onProfileRemoved((profileId) => mirrors.removeProfile(profileId))))
  lifetime.add(toDisposable(profiles.onProfileRemoved((profileId) => drafts.removeProfile(profileId))))
  const now = options.now ?? (() => new Date())
  const presets = createPresetStore({ folder: presetsFolder(options.userDataDir), notices, now })
  const presetFiles = createPresetTransfer(presets, dialogs)
  const boards = createAppBoards({ userDataDir: options.userDataDir, notices, now, presets, dialogs })
  const results = createResultCache({
    folder: resultsFolder(options.userDataDir),
    limitBytes: async () => (await settings.read()).resultCacheMegabytes * 1024 * 1024,
    notices,
    now,
  })
  // Writes the order of use the reads kept in memory (result-cache.ts, `uses`).
  lifetime.add(toDisposable(() => results.close()))
  const runHistory = createRunHistoryStore({ folder: runHistoryFolder(options.userDataDir), notices, now })
  // The saved results belong to the connection; the history keeps its runs (it names the connection).
  lifetime.add(toDisposable(profiles.onProfileRemoved((profileId) => results.removeProfile(profileId))))
  const infoStore = createDiskInfoStore(options.userDataDir, notices)
  lifetime.add(toDisposable(profiles.onProfileRemoved((profileId) => infoStore.removeProfile(profileId))))
  const capture = createRequestCapture()
  async function connectionName(profileId: string): Promise<string> {
    if (profileId === DEMO_PROFILE_ID) return 'Demo workspace'
    const stored = await profiles.find(profileId)
    return stored?.id === profileId ? stored.name : profileId
  }
  const reports = recordRuns(
    createReportService({
      reportingOf: async (profileId) => capture.wrap((await workspace.connection(profileId)).reporting),
      store: infoStore,
      ...(options.now ? { now: options.now } : {}),
    }),
    {
      cache: results,
      runHistory,
      capture,
      notices,
      now,
      connectionName,
    },
  )
  lifetime.add(toDisposable(() => reports.flush()))
  const copyRequest = createRequestCopier({
    infoOf: (profileId, project, report, signal) => reports.info(profileId, project, report, { signal }),
    reportUrlOf: async (profileId) => (await workspace.connection(profileId)).settings.reportUrl,
    lastChart: async (profileId, definition) => {
      const cached = await results.get(profileId, 'chart', definition, null)
      return cached?.kind === 'chart' ? { series: cached.result.series, ranAt: cached.ranAt } : null
    },
    now,
  })
  const boardPages = createBoardPages(
    createBoardFileMaker({
      board: (name) => boards.store.get(name),
      presetDefinition: async (name) => (await presets.get(name)).definition,
      kept: (profileId, kind, definition, preset) => results.get(profileId, kind, definition, preset),
      run: (profileId, definition, runOptions) => reports.run(profileId, definition, runOptions),
      audience: (profileId, definition, runOptions) => reports.audience(profileId, definition, runOptions),
      connectionName: async (profileId) => (profileId === null ? 'No connection' : connectionName(profileId)),
      now,
    }),
    dialogs,
    async () => (await workspace.state()).activeProfileId,
    // Board pages are listed in Exports beside the report files (issue 39); the service is made just below.
    (page) => exportJobs.recordFile(page),
  )
  const exportJobs = createExportService({
    reportingOf: async (profileId) => (await workspace.connection(profileId)).reporting,
    infoOf: (profileId, project, report, signal) => reports.info(profileId, project, report, { signal }),
    presetOf: async (name) => (await presets.get(name)).definition,
    dialog: dialogs,
    jobHistory: createExportJobHistory(exportJobHistoryFile(options.userDataDir), notices),
    events,
    notices,
    signals: host.exportSignals ?? null,
    shell: host.exportShell ?? null,
    now,
  })
  // Jobs stop (kept as interrupted, temporary files removed) while their connections still exist.
  lifetime.add(toDisposable(() => exportJobs.close()))
  const alertRules = createRuleStore({ folder: alertsFolder(options.userDataDir), notices, now })
  // Alert checks run the chart through a report service of their own: a check is not a run the user made.
  const alerts = createAppAlerts({
    userDataDir: options.userDataDir,
    rules: alertRules,
    workspace,
    settings,
    presets,
    reports,
    infoStore,
    notices,
    events,
    host,
    now,
    ...(options.now ? { pinnedNow: options.now } : {}),
  })
  const alertWatch = createAppAlertWatch({
    alerts,
    presets,
    rules: alertRules,
    events,
    activeProfileId: async () => (await workspace.state()).activeProfileId,
    online: host.isOnline ?? (() => true),
    log,
    now,
    ...(options.alertTimers ? { timers: options.alertTimers } : {}),
  })
  lifetime.add(toDisposable(() => alertWatch.stop()))
  // The demo's planted incidents show within seconds of opening it: its seed, then a round shortly.
  demoStarted = () =>
    seedDemoAlerts({ presets, rules: alertRules, settings }).then(
      () => alertWatch.soon(),
      (error: unknown) => log.warn('the demo alert preset was not saved', { error: String(error) }),
    )
  const schedules = createAppSchedules({
    userDataDir: options.userDataDir,
    source: 'app',
    notices,
    events,
    log,
    presets,
    boards: boards.store,
    // A board schedule's file, drawn by main alone with its tiles run first (the request says refresh).
    boardFiles: boardPages.maker,
    reports,
    exports: exportJobs,
    dialogs,
    host,
    // A schedule that checks alerts runs the preset's rules through the alert service, on the schedule's own connection.
    alerts: schedulesAlertsPort(alerts),
    now,
  })
  // The timer stops before the export jobs do.
  lifetime.add(toDisposable(() => schedules.stop()))
  const requests = createCancellationRegistry()
  lifetime.add(toDisposable(() => requests.cancelAll()))
  const analysis = createAnalysis({ dialogs, saveDialog: dialogs, exportFile: (jobId) => exportJobs.finishedFile(jobId) })
  lifetime.add(toDisposable(() => analysis.dispose()))
  // The analysis engine loads in the background a moment after start (engine.ts says why); a
  // failure to load shows at the first analysis, with its sentence, not here.
  if (options.engineWarmUp ?? true) {
    const engineWarmUp = setTimeout(() => void loadEngine().catch(() => undefined), ENGINE_WARM_UP_DELAY_MS)
    engineWarmUp.unref()
    lifetime.add(toDisposable(() => clearTimeout(engineWarmUp)))
  }
  return {
    environment: options.environment,
    notices,
    events,
    secrets,
    profiles,
    settings,
    workspace,
    entities,
    changes,
    bulk,
    drafts,
    reports,
    presets,
    presetFiles,
    boards,
    boardPages,
    results,
    runHistory,
    copyRequest,
    exports: exportJobs,
    alerts,
    alertWatch,
    chartFiles: createChartFiles({ dialog: dialogs }),
    analysis,
    requests,
    http,
    log,
    logsDir,
    errors,
    theme,
    schedules,
    bulkDesk: createAppDesk({ entities, bulk, dialogs, events }),
    async start() {
      const [, stored] = await Promise.all([profiles.list(), settings.read()])
      log.setLevel(stored.logLevel)
      await theme.start()
      // A job the last run left running is marked interrupted now, not found silently later.
      await exportJobs.recover()
      // Presets are read now, so a file that is not a preset is reported at start, but without
      // holding up the window: a team folder may hold a thousand of them.
      void presets.list().catch(() => undefined)
      log.info(`AdOps Desk ${options.environment.version} started`, { platform: options.environment.platform })
    },
  }
}
