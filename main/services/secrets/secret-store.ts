import { AppError } from '../errors'
import type { Keychain } from './keychain'

export type SecretStorage = 'keychain' | 'session' | 'none'

export interface SecretStore {
  /** Whether the OS keychain answered when last asked. */
  isKeychainAvailable(): Promise<boolean>
  /** Stores the secret; with `sessionOnly` (allowed only when the keychain is unavailable) it stays in memory. */
  set(profileId: string, secret: string, options?: { sessionOnly?: boolean }): Promise<SecretStorage>
  get(profileId: string): Promise<string | null>
  storage(profileId: string): Promise<SecretStorage>
  delete(profileId: string): Promise<void>
}

export interface SecretStoreOptions {
  /** Opens the keychain; called once, lazily. A rejection means "unavailable". */
  openKeychain: () => Promise<Keychain>
  /** The keychain service name entries are filed under. */
  serviceName: string
}

const unavailableMessage =
  'The system keychain is not available, so the secret cannot be saved securely. ' +
  'You can keep it for this session only (it will be asked again after a restart), or unlock or install a keychain and try again.'

/**
 * Secrets live in the OS keychain keyed by profile id, or, only when the user chose so
 * because the keychain is unavailable, in this process's memory. Never on disk in plain text.
 */
export function createSecretStore({ openKeychain, serviceName }: SecretStoreOptions): SecretStore {
  const sessionSecrets = new Map<string, string>()
  let keychain: Promise<Keychain | null> | undefined

  async function probe(candidate: Keychain): Promise<Keychain | null> {
    try {
      // A cheap round trip proves the Secret Service is running and unlocked.
      await candidate.findCredentials(serviceName)
      return candidate
    } catch {
      return null
    }
  }

  function getKeychain(): Promise<Keychain | null> {
    keychain ??= openKeychain().then(probe, () => null)
    return keychain
  }

  async function keychainCall<T>(action: (chain: Keychain) => Promise<T>): Promise<T> {
    const chain = await getKeychain()
    if (chain === null) throw new AppError('keychain_unavailable', unavailableMessage)
    try {
      return await action(chain)
    } catch (error) {
      throw new AppError('keychain_unavailable', unavailableMessage, { error: (error as Error).message })
    }
  }

  return {
    async isKeychainAvailable() {
      return (await getKeychain()) !== null
    },

    async set(profileId, secret, options = {}) {
      if (options.sessionOnly === true) {
        if (await this.isKeychainAvailable()) {
          // The keychain works: a session-only copy would just lose the secret at restart for no gain.
          options = {}
        } else {
          sessionSecrets.set(profileId, secret)
          return 'session'
        }
      }
      await keychainCall((chain) => chain.setPassword(serviceName, profileId, secret))
      sessionSecrets.delete(profileId)
      return 'keychain'
    },

    async get(profileId) {
      const inMemory = sessionSecrets.get(profileId)
      if (inMemory !== undefined) return inMemory
      const chain = await getKeychain()
      if (chain === null) return null
      return chain.getPassword(serviceName, profileId).catch(() => null)
    },

    async storage(profileId) {
      if (sessionSecrets.has(profileId)) return 'session'
      return (await this.get(profileId)) === null ? 'none' : 'keychain'
    },

    async delete(profileId) {
      sessionSecrets.delete(profileId)
      const chain = await getKeychain()
      if (chain === null) return
      await keychainCall((available) => available.deletePassword(serviceName, profileId))
    },
  }
}
