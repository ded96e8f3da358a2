import path from 'node:path'
import type { StartSandbox } from './connection/demo'
import { createDraftsStore, type DraftsStore } from './entities/drafts-store'
import { createEntityService, type EntityService, type SaveDialog } from './entities/entity-service'
import { createMirrorStore } from './entities/mirror-store'
import { createEventHub, type EventHub } from './events'
import { createHttpClient, type HttpClient, type HttpClientOptions } from './http/client'
import { createErrorReporter, type ErrorReporter } from './logs/error-reporter'
import { createLogFile } from './logs/log-file'
import { createLogger, type Logger } from './logs/logger'
import { createNotices, type Notices } from './notices'
import { createProfileStore, type ProfileStore } from './profiles/profile-store'
import { createRequestRegistry, type RequestRegistry } from './requests'
import { createDiskInfoStore } from './reports/info-store'
import { createReportService, type ReportService } from './reports/service'
import type { Keychain } from './secrets/keychain'
import { createSecretStore, type SecretStore } from './secrets/secret-store'
import { createSettingsStore, type SettingsStore } from './workspace/settings-store'
import { createThemeService, type SystemTheme, type ThemeService } from './workspace/theme'
import { createWorkspace, type Workspace } from './workspace/workspace'

export interface Environment {
  version: string
  platform: string
}

export interface ServicesOptions {
  userDataDir: string
  openKeychain: () => Promise<Keychain>
  keychainServiceName: string
  environment: Environment
  /** Starts the embedded demo backend (main/sandbox); passed in so services never import a server. */
  startSandbox: StartSandbox
  /** The OS save dialog; null where there is none (the web host). */
  saveDialog: SaveDialog | null
  http?: HttpClientOptions
  now?: () => Date
  /** Where the rotating log goes: Electron's logs folder in the app; default `<userData>/logs` (the web host, tests). */
  logsDir?: string
  /** The OS theme (Electron's nativeTheme); null or absent where main cannot see it (the web host). */
  systemTheme?: SystemTheme | null
}

/** Everything the handlers use, built once from its dependencies: the composition root of main. */
export interface Services {
  environment: Environment
  notices: Notices
  events: EventHub
  secrets: SecretStore
  profiles: ProfileStore
  settings: SettingsStore
  workspace: Workspace
  entities: EntityService
  drafts: DraftsStore
  reports: ReportService
  requests: RequestRegistry
  http: HttpClient
  log: Logger
  logsDir: string
  /** Errors nothing else caught, from main or the page: logged, shown once. */
  errors: ErrorReporter
  theme: ThemeService
  /** Reads what is on disk so problems (a corrupt file moved aside) are reported at start, not at first use. */
  start(): Promise<void>
  /** Releases what the services hold (the demo server, sockets) when the app quits. */
  close(): Promise<void>
}

export function createServices(options: ServicesOptions): Services {
  const notices = createNotices()
  const events = createEventHub()
  const logsDir = options.logsDir ?? path.join(options.userDataDir, 'logs')
  const log = createLogger({
    file: createLogFile({ folder: logsDir, onError: (error) => console.warn(`AdOps Desk could not write its log in ${logsDir}: ${String(error)}`) }),
  })
  // What the user is told without asking (a file moved aside, a keychain entry left behind) is worth a line too.
  notices.subscribe((notice) => (notice.level === 'info' ? log.info : log.warn)(`notice: ${notice.message}`, notice.details))
  const errors = createErrorReporter({ log, notices })
  const secrets = createSecretStore({ openKeychain: options.openKeychain, serviceName: options.keychainServiceName, userDataDir: options.userDataDir })
  const profiles = createProfileStore({
    userDataDir: options.userDataDir,
    secrets,
    notices,
    ...(options.now ? { now: options.now } : {}),
  })
  const settings = createSettingsStore(options.userDataDir, notices)
  const http = createHttpClient({
    ...options.http,
    onRetry(event) {
      // A read waiting out a rate limit: tell the user why nothing is happening, and for how long.
      if (event.statusCode === 429) events.emit('onThrottled', { profileId: null, waitSeconds: Math.ceil(event.delayMs / 1000), url: event.url })
      options.http?.onRetry?.(event)
    },
  })
  // A secret read for a sign-in is kept out of the log even where nothing names it a secret.
  const workspace = createWorkspace({ profiles, settings, http, startSandbox: options.startSandbox, onCredentials: (credentials) => log.addSecret(credentials.method === 'password' ? credentials.password : credentials.token) })
  const theme = createThemeService({ settings, events, system: options.systemTheme ?? null })
  const mirrors = createMirrorStore(options.userDataDir, notices)
  const entities = createEntityService({ workspace, mirrors, events, saveDialog: options.saveDialog, ...(options.now ? { now: options.now } : {}) })
  const drafts = createDraftsStore(options.userDataDir, notices, options.now)
  // A deleted connection takes its local lists and drafts with it.
  profiles.onProfileRemoved((profileId) => mirrors.removeProfile(profileId))
  profiles.onProfileRemoved((profileId) => drafts.removeProfile(profileId))
  const infoStore = createDiskInfoStore(options.userDataDir, notices)
  profiles.onProfileRemoved((profileId) => infoStore.removeProfile(profileId))
  const reports = createReportService({
    reportingOf: async (profileId) => (await workspace.connection(profileId)).reporting,
    store: infoStore,
    ...(options.now ? { now: options.now } : {}),
  })
  const requests = createRequestRegistry()
  return {
    environment: options.environment,
    notices,
    events,
    secrets,
    profiles,
    settings,
    workspace,
    entities,
    drafts,
    reports,
    requests,
    http,
    log,
    logsDir,
    errors,
    theme,
    async start() {
      const [, stored] = await Promise.all([profiles.list(), settings.read()])
      log.setLevel(stored.logLevel)
      await theme.start()
      log.info(`AdOps Desk ${options.environment.version} started`, { platform: options.environment.platform })
    },
    async close() {
      requests.cancelAll()
      theme.close()
      await workspace.close()
      await http.close()
      log.info('AdOps Desk stopped')
      await log.flush()
    },
  }
}
