import { createNotices } from '../services/notices'
import { createProfileStore, type ProfileStore } from '../services/profiles/profile-store'
import type { ConnectionSettings, Credentials } from '../services/connection/settings'
import { loadKeytar, type Keychain } from '../services/secrets/keychain'
import { createSecretStore } from '../services/secrets/secret-store'
import { createHttpClient, type HttpClient, type HttpClientOptions } from '../services/http/client'
import { createConnection, type Connection } from '../services/connection/connection'

/** What the commands use: the app's profile store and keychain, and connections over one HTTP client. */
export interface CliServices {
  profiles: ProfileStore
  connect(settings: ConnectionSettings, credentials: () => Promise<Credentials>): Connection
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
  const secrets = createSecretStore({ openKeychain: overrides.openKeychain ?? loadKeytar, serviceName: context.keychainService, userDataDir: context.userDataDir })
  const profiles = createProfileStore({ userDataDir: context.userDataDir, secrets, notices })
  // Made on first use: listing profiles needs no connection pool.
  let http: HttpClient | null = null
  return {
    profiles,
    connect(settings, credentials) {
      http ??= createHttpClient(overrides.http)
      return createConnection({ settings, credentials, http, ...(overrides.now === undefined ? {} : { now: overrides.now }) })
    },
    async close() {
      await http?.close()
    },
  }
}
