import type { Keychain } from './secrets/keychain'
import { createSecretStore, type SecretStore } from './secrets/secret-store'
import { createProfileStore, type ProfileStore } from './profiles/profile-store'
import { createNotices, type Notices } from './notices'

export interface Environment {
  version: string
  platform: string
}

export interface ServicesOptions {
  userDataDir: string
  openKeychain: () => Promise<Keychain>
  keychainServiceName: string
  environment: Environment
  now?: () => Date
}

/** Everything the handlers use, built once from its dependencies: the composition root of main. */
export interface Services {
  environment: Environment
  notices: Notices
  secrets: SecretStore
  profiles: ProfileStore
  /** Reads what is on disk so problems (a corrupt file moved aside) are reported at start, not at first use. */
  start(): Promise<void>
  /** Releases what the services hold (servers, sockets) when the app quits. */
  close(): Promise<void>
}

export function createServices(options: ServicesOptions): Services {
  const notices = createNotices()
  const secrets = createSecretStore({ openKeychain: options.openKeychain, serviceName: options.keychainServiceName })
  const profiles = createProfileStore({
    userDataDir: options.userDataDir,
    secrets,
    notices,
    ...(options.now ? { now: options.now } : {}),
  })
  return {
    environment: options.environment,
    notices,
    secrets,
    profiles,
    async start() {
      await profiles.list()
    },
    async close() {},
  }
}
