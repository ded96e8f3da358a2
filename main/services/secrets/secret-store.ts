import { AppError } from '../errors'
import type { Keychain } from './keychain'
import { createSecretIndex } from './secret-index'

export type SecretStorage = 'keychain' | 'session' | 'none'

/**
 * A profile's secret, bound to where it may be sent. `boundTo` names the servers the secret
 * (or a token got with it) goes to; it is part of the keychain account, so a secret saved for
 * one set of servers is simply not found for another: a profile re-pointed by any path (a
 * hostile page, a bug, a hand-edited file) has no secret to send to its new address.
 */
export interface SecretKey {
  profileId: string
  boundTo: string
}

export interface SecretStore {
  /** Whether the OS keychain answers now; asked again each time while it does not (it may be unlocked later). */
  isKeychainAvailable(): Promise<boolean>
  /** Stores the secret; with `sessionOnly` (allowed only when the keychain is unavailable) it stays in memory. */
  set(key: SecretKey, secret: string, options?: { sessionOnly?: boolean }): Promise<SecretStorage>
  /** The secret saved under exactly this binding, or null. */
  get(key: SecretKey): Promise<string | null>
  /** Where a profile's secret is, without reading it. */
  storage(key: SecretKey): Promise<SecretStorage>
  /** Removes the secret under this binding (and one saved before secrets were bound). */
  delete(key: SecretKey): Promise<void>
}

/**
 * The keychain account of a bound secret: the profile id and where the secret may go, readable
 * in the OS keychain's own window ("3f2c… for https://auth.example.com").
 */
export function accountOf(key: SecretKey): string {
  return `${key.profileId} for ${key.boundTo}`
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
 * Secrets live in the OS keychain keyed by profile id and binding (see SecretKey), or, only
 * when the user chose so because the keychain is unavailable, in this process's memory. Never
 * on disk in plain text.
 *
 * Reading a secret happens only when it is needed (signing in). Whether a profile has one is
 * answered from a small index of accounts (secret-index.ts), so listing profiles reads no
 * secret. Accounts missing from the index are looked up once each, then recorded.
 *
 * Secrets saved before they were bound sit under the bare profile id. Such a secret is taken
 * as bound to where the profile points when it is first needed, and moved under that binding.
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

  /** What the index says about a key, counting a secret recorded before binding as this key's. */
  async function recorded(key: SecretKey): Promise<boolean | undefined> {
    return (await index.lookup(serviceName, accountOf(key))) ?? (await index.lookup(serviceName, key.profileId))
  }

  /** Reads the secret because it is needed, and corrects the index if it was wrong. */
  async function readSecret(chain: Keychain, key: SecretKey): Promise<string | null> {
    const account = accountOf(key)
    const secret = (await chain.getPassword(serviceName, account)) ?? (await adoptUnbound(chain, key))
    if ((await index.lookup(serviceName, account)) !== (secret !== null)) await index.record(serviceName, account, secret !== null)
    return secret
  }

  /** A secret saved before binding existed, moved under the profile's binding of today. */
  async function adoptUnbound(chain: Keychain, key: SecretKey): Promise<string | null> {
    const secret = await chain.getPassword(serviceName, key.profileId)
    if (secret === null) return null
    await chain.setPassword(serviceName, accountOf(key), secret)
    await chain.deletePassword(serviceName, key.profileId)
    await index.forget(serviceName, key.profileId)
    return secret
  }

  return {
    async isKeychainAvailable() {
      return (await getKeychain()) !== null
    },

    async set(key, secret, options = {}) {
      const account = accountOf(key)
      if (options.sessionOnly === true) {
        if (await this.isKeychainAvailable()) {
          // The keychain works: a session-only copy would just lose the secret at restart for no gain.
          options = {}
        } else {
          sessionSecrets.set(account, secret)
          return 'session'
        }
      }
      await keychainCall((chain) => chain.setPassword(serviceName, account, secret))
      sessionSecrets.delete(account)
      await index.record(serviceName, account, true).catch((error: unknown) => {
        throw new AppError(
          'storage',
          'The secret was saved in the system keychain, but AdOps Desk could not note that on disk. Check that the disk is not full and try again.',
          {
            error: (error as Error).message,
          },
        )
      })
      return 'keychain'
    },

    async get(key) {
      const account = accountOf(key)
      const inMemory = sessionSecrets.get(account)
      if (inMemory !== undefined) return inMemory
      const chain = await getKeychain()
      if (chain === null) {
        // One is stored but cannot be read now: say so, rather than "there is none".
        if ((await recorded(key)) === true) throw new AppError('keychain_unavailable', lockedMessage, { profileId: key.profileId })
        return null
      }
      return readSecret(chain, key).catch(() => null)
    },

    async storage(key) {
      const account = accountOf(key)
      if (sessionSecrets.has(account)) return 'session'
      const known = await recorded(key)
      if (known !== undefined) return known ? 'keychain' : 'none'
      // Not recorded yet (saved before the index, or before binding): look it up once and record the answer.
      const chain = await getKeychain()
      if (chain === null) return 'none'
      const secret = await readSecret(chain, key).catch(() => null)
      return secret === null ? 'none' : 'keychain'
    },

    async delete(key) {
      const account = accountOf(key)
      sessionSecrets.delete(account)
      const chain = await getKeychain()
      if (chain === null) {
        // The entry may outlive this (the keychain is locked); forget it so it is looked up again if asked.
        await index.forget(serviceName, account)
        return
      }
      await keychainCall(async (ready) => {
        await ready.deletePassword(serviceName, account)
        await ready.deletePassword(serviceName, key.profileId)
      })
      await index.forget(serviceName, account)
      await index.forget(serviceName, key.profileId)
    },
  }
}
