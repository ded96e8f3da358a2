import { AppError } from '../errors'
import type { Keychain } from './keychain'
import { createSecretIndex } from './secret-index'

export type SecretStorage = 'keychain' | 'session' | 'none'

export interface SecretStore {
  /** Whether the OS keychain answers now; asked again each time while it does not (it may be unlocked later). */
  isKeychainAvailable(): Promise<boolean>
  /** Stores the secret; with `sessionOnly` (allowed only when the keychain is unavailable) it stays in memory. */
  set(profileId: string, secret: string, options?: { sessionOnly?: boolean }): Promise<SecretStorage>
  get(profileId: string): Promise<string | null>
  /** Where a profile's secret is, without reading it. */
  storage(profileId: string): Promise<SecretStorage>
  delete(profileId: string): Promise<void>
}

export interface SecretStoreOptions {
  /** Opens the keychain; a rejection means "unavailable" (and it is tried again later). */
  openKeychain: () => Promise<Keychain>
  /** The keychain service name entries are filed under. */
  serviceName: string
  /** Where the index of which profiles have a secret is kept (the profiles' folder). */
  userDataDir: string
}

/** The account the availability probe asks for: no profile id looks like it, so no secret is ever read by the probe. */
export const PROBE_ACCOUNT = '(AdOps Desk availability check)'

const unavailableMessage =
  'The system keychain is not available, so the secret cannot be saved securely. ' +
  'You can keep it for this session only (it will be asked again after a restart), or unlock or install a keychain and try again.'

const lockedMessage = 'The system keychain is locked or not available, so the saved password or token cannot be read. Unlock the keychain and try again.'

/**
 * Secrets live in the OS keychain keyed by profile id, or, only when the user chose so
 * because the keychain is unavailable, in this process's memory. Never on disk in plain text.
 *
 * Reading a secret happens only when it is needed (signing in). Whether a profile has one is
 * answered from a small index of profile ids (secret-index.ts), so listing profiles reads no
 * secret. Profiles saved before the index existed are looked up once each, then recorded.
 */
export function createSecretStore({ openKeychain, serviceName, userDataDir }: SecretStoreOptions): SecretStore {
  const sessionSecrets = new Map<string, string>()
  const index = createSecretIndex(userDataDir)
  let available: Keychain | undefined
  let probing: Promise<Keychain | null> | undefined

  async function probe(): Promise<Keychain | null> {
    try {
      const candidate = await openKeychain()
      // A round trip for an account that holds nothing proves the Secret Service runs and is
      // unlocked, without reading any stored secret.
      await candidate.getPassword(serviceName, PROBE_ACCOUNT)
      available = candidate
      return candidate
    } catch {
      return null
    }
  }

  /** The keychain once it has answered; until then each call probes again (one probe at a time). */
  function getKeychain(): Promise<Keychain | null> {
    if (available !== undefined) return Promise.resolve(available)
    probing ??= probe().finally(() => {
      probing = undefined
    })
    return probing
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

  /** Reads the secret because it is needed, and corrects the index if it was wrong. */
  async function readSecret(chain: Keychain, profileId: string): Promise<string | null> {
    const secret = await chain.getPassword(serviceName, profileId)
    if ((await index.lookup(serviceName, profileId)) !== (secret !== null)) await index.record(serviceName, profileId, secret !== null)
    return secret
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
      await index.record(serviceName, profileId, true).catch((error: unknown) => {
        throw new AppError('storage', 'The secret was saved in the system keychain, but AdOps Desk could not note that on disk. Check that the disk is not full and try again.', {
          error: (error as Error).message,
        })
      })
      return 'keychain'
    },

    async get(profileId) {
      const inMemory = sessionSecrets.get(profileId)
      if (inMemory !== undefined) return inMemory
      const chain = await getKeychain()
      if (chain === null) {
        // One is stored but cannot be read now: say so, rather than "there is none".
        if ((await index.lookup(serviceName, profileId)) === true) throw new AppError('keychain_unavailable', lockedMessage, { profileId })
        return null
      }
      return readSecret(chain, profileId).catch(() => null)
    },

    async storage(profileId) {
      if (sessionSecrets.has(profileId)) return 'session'
      const known = await index.lookup(serviceName, profileId)
      if (known !== undefined) return known ? 'keychain' : 'none'
      // Saved before the index existed: look it up once and record the answer.
      const chain = await getKeychain()
      if (chain === null) return 'none'
      const secret = await readSecret(chain, profileId).catch(() => null)
      return secret === null ? 'none' : 'keychain'
    },

    async delete(profileId) {
      sessionSecrets.delete(profileId)
      const chain = await getKeychain()
      if (chain === null) {
        // The entry may outlive this (the keychain is locked); forget it so it is looked up again if asked.
        await index.forget(serviceName, profileId)
        return
      }
      await keychainCall((ready) => ready.deletePassword(serviceName, profileId))
      await index.forget(serviceName, profileId)
    },
  }
}
