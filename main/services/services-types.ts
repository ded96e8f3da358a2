/**
 * What the services are and what they are built from: the types main/services/index.ts builds
 * and the handlers, hosts and tests use.
 */
import type { ReportDefinition, RunKind } from '@contract'
import type { StartSandbox } from './connection/demo'
import type { ServiceAdapters } from './host-adapters'
import type { BulkApplier, ChangeLog } from './bulk/app-bulk'
import type { DraftsStore } from './entities/drafts-store'
import type { EntityService } from './entities/entity-service'
import type { EventHub } from './events'
import type { Analysis } from './analysis/analysis'
import type { ChartFiles } from './exports/chart-files'
import type { AlertWatch, WatchTimers } from './alerts/alert-watch'
import type { AlertService } from './alerts/service'
import type { ExportService } from './exports/jobs'
import type { DeskServices } from './bulk/app-desk'
import type { HttpClient, HttpClientOptions } from './http/client'
import type { ErrorReporter } from './logs/error-reporter'
import type { Logger } from './logs/logger'
import type { Notices } from './notices'
import type { ProfileStore } from './profiles/profile-store'
import type { CancellationRegistry } from './cancellation'
import type { RunHistoryStore } from './run-history/run-history-store'
import type { RecordedReportService } from './run-history/record-runs'
import type { RequestCopy } from './presets/api-request'
import type { AppBoards } from './boards/app-boards'
import type { BoardPages } from './boards/board-file-save'
import type { PresetStore } from './presets/preset-store'
import type { PresetTransfer } from './presets/transfer'
import type { RunningSchedules } from './schedules/service'
import type { ResultCache } from './results/result-cache'
import type { SecretStore } from './secrets/secret-store'
import type { SettingsStore } from './workspace/settings-store'
import type { ThemeService } from './workspace/theme'
import type { Workspace } from './workspace/workspace'

export interface Environment {
  version: string
  platform: string
}

export interface ServicesOptions {
  userDataDir: string
  keychainServiceName: string
  environment: Environment
  /** What the host gives the services (host-adapters.ts says what each is and where it is absent). */
  host: ServiceAdapters
  /** Starts the demo backend (main/sandbox); passed in so services never import a server. The runtime's starts it
   * embedded on loopback through the host's loader; a test's may start the module itself. */
  startSandbox: StartSandbox
  http?: HttpClientOptions
  now?: () => Date
  /** Where the rotating log goes: Electron's logs folder in the app; default `<userData>/logs` (the web host, tests). */
  logsDir?: string
  /**
   * Default true: the analysis engine loads in the background a moment after start (engine.ts says
   * why). False: at the first analysis (the end-to-end tests' hosts, most of which never analyse).
   */
  engineWarmUp?: boolean
  /** The alert watch's clock (alerts/alert-watch.ts): real timers unless a test drives a manual one. */
  alertTimers?: WatchTimers
}

/** Everything the handlers use, built once from its dependencies. */
export interface Services extends DeskServices {
  environment: Environment
  notices: Notices
  events: EventHub
  secrets: SecretStore
  profiles: ProfileStore
  settings: SettingsStore
  workspace: Workspace
  entities: EntityService
  changes: ChangeLog
  bulk: BulkApplier
  drafts: DraftsStore
  /** Runs are recorded: a line in the history, the result in the cache. */
  reports: RecordedReportService
  presets: PresetStore
  presetFiles: PresetTransfer
  boards: AppBoards
  /** Boards drawn as PDF or PNG pages by main (the button, schedules, the command line). */
  boardPages: BoardPages
  results: ResultCache
  runHistory: RunHistoryStore
  /** "Copy as API request". */
  copyRequest(profileId: string, definition: ReportDefinition, kind: RunKind, signal: AbortSignal): Promise<RequestCopy>
  exports: ExportService
  /** Alert rules, checks (also the scheduler's `checkPresetAlerts`), backtests and fired alerts. */
  alerts: AlertService
  /** Rules checked without a schedule: after a preset's run, shortly after start, every 30 minutes (started by the runtime). */
  alertWatch: AlertWatch
  /** The current chart saved as PNG, SVG or csv (exports:saveChart). */
  chartFiles: ChartFiles
  analysis: Analysis
  requests: CancellationRegistry
  http: HttpClient
  log: Logger
  logsDir: string
  /** Errors nothing else caught, from main or the page: logged, shown once. */
  errors: ErrorReporter
  theme: ThemeService
  /** Scheduled runs of presets (exports, alert checks), their ledger and the OS entry. */
  schedules: RunningSchedules
  /** Reads what is on disk so problems (a corrupt file moved aside) are reported at start, not at first use. */
  start(): Promise<void>
}
