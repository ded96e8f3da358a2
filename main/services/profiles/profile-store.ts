import path from 'node:path'
import { randomUUID } from 'node:crypto'
import type { Profile, ProfileInput } from '@contract'
import { AppError } from '../errors'
import { createDocumentStore, noticeOnCorrupt } from '../files/document-store'
import type { Notices } from '../notices'
import type { SecretKey, SecretStore } from '../secrets/secret-store'
import type { Credentials } from '../connection/settings'
import { PROFILES_FILE_VERSION, profilesFileSchema, type StoredProfile } from './types'
import { normaliseProfileInput, secretBinding, secretBoundChanges } from './validation'

export interface ProfileStore {
  list(): Promise<Profile[]>
  get(id: string): Promise<Profile>
  /** The stored profile (no secret) by id or, for the command line, by display name. */
  find(idOrName: string): Promise<StoredProfile | null>
  create(input: ProfileInput): Promise<Profile>
  update(id: string, input: ProfileInput): Promise<Profile>
  duplicate(id: string): Promise<Profile>
  delete(id: string): Promise<void>
  /** The credential for a profile, read from the secret store at the moment it is needed. */
  credentials(id: string): Promise<Credentials>
  /**
   * Calls `listener` after a profile is deleted, so what is kept per profile elsewhere (lists,
   * drafts, caches) goes with it without this store knowing about it. `delete` waits for the
   * listeners. Returns the way to stop listening.
   */
  onProfileRemoved(listener: ProfileRemovedListener): () => void
}

export type ProfileRemovedListener = (profileId: string) => void | Promise<void>

export interface ProfileStoreOptions {
  userDataDir: string
  secrets: SecretStore
  notices: Notices
  now?: () => Date
  newId?: () => string
}

export const PROFILES_FILE_NAME = 'profiles.json'

export function createProfileStore(options: ProfileStoreOptions): ProfileStore {
  const { secrets, notices } = options
  const now = options.now ?? (() => new Date())
  const newId = options.newId ?? randomUUID
  const filePath = path.join(options.userDataDir, PROFILES_FILE_NAME)

  const removedListeners = new Set<ProfileRemovedListener>()
  const document = createDocumentStore({
    filePath,
    schema: profilesFileSchema,
    fallback: { version: PROFILES_FILE_VERSION, profiles: [] },
    onCorrupt: noticeOnCorrupt(
      notices,
      'error',
      ({ reason }) =>
        `Your saved connections could not be read because ${reason}. The file was moved aside so nothing is lost; re-create the connections or restore them from the moved file.`,
    ),
    saveFailed: 'Your connections could not be saved to disk. Check that the disk is not full and try again.',
    now,
  })

  async function load(): Promise<StoredProfile[]> {
    return (await document.read()).profiles
  }

  /** Changes the list and saves it; `change` works on a copy, and what it throws leaves the file as it was. */
  async function mutate<T>(change: (profiles: StoredProfile[]) => Promise<{ profiles: StoredProfile[]; result: T }>): Promise<T> {
    let result!: T
    await document.update(async (file) => {
      const changed = await change([...file.profiles])
      result = changed.result
      return { ...file, profiles: changed.profiles }
    })
    return result
  }

  /** The keychain key of a profile's secret: bound to the servers the profile points at now. */
  function keyOf(stored: StoredProfile): SecretKey {
    return { profileId: stored.id, boundTo: secretBinding(stored) }
  }

  async function present(stored: StoredProfile): Promise<Profile> {
    const storage = await secrets.storage(keyOf(stored))
    return { ...stored, hasSecret: storage !== 'none', secretStorage: storage, isDemo: false }
  }

  function secretOf(input: ProfileInput): string | undefined {
    return input.auth.method === 'password' ? input.auth.password : input.auth.token
  }

  function requireSecret(): never {
    throw new AppError('validation', 'Enter the password or token for this connection.', {
      fields: { secret: ['Required'] },
    })
  }

  /**
   * Re-pointing a connection (another address, service id, user or method) without entering its
   * secret again is refused: the saved secret was given for the old servers, and a page that was
   * taken over could otherwise send it wherever it likes by editing the addresses.
   */
  function requireSecretAgain(changed: string[]): never {
    throw new AppError(
      'validation',
      "The connection's addresses or sign-in changed, so its saved password or token was not kept. Enter it again to save the change.",
      {
        fields: { secret: ['Enter the password or token again: the addresses or sign-in changed.'] },
        changed,
      },
    )
  }

  function dropSecret(key: SecretKey): Promise<void> {
    return secrets.delete(key).catch((error: unknown) => {
      notices.add({
        level: 'warning',
        message:
          'A password or token that is no longer used could not be removed from the system keychain. Remove the old "AdOps Desk" entry by hand if it matters to you.',
        details: { error: String(error) },
      })
    })
  }

  async function findIndex(profiles: StoredProfile[], id: string): Promise<number> {
    const index = profiles.findIndex((profile) => profile.id === id)
    if (index < 0) throw new AppError('not_found', 'That connection no longer exists; it may have been deleted in another window.', { id })
    return index
  }

  return {
    async list() {
      const profiles = await load()
      return Promise.all(profiles.map(present))
    },

    async get(id) {
      const profiles = await load()
      const found = profiles[await findIndex(profiles, id)]
      return present(found as StoredProfile)
    },

    async find(idOrName) {
      const profiles = await load()
      return profiles.find((profile) => profile.id === idOrName) ?? profiles.find((profile) => profile.name === idOrName) ?? null
    },

    async create(input) {
      const normalised = normaliseProfileInput(input)
      const secret = secretOf(input)
      if (secret === undefined) requireSecret()
      const stamp = now().toISOString()
      const stored: StoredProfile = { id: newId(), ...normalised, createdAt: stamp, updatedAt: stamp }
      // Secret first: a profile that exists without its secret is confusing, an orphaned keychain entry is harmless and is overwritten on retry.
      await secrets.set(keyOf(stored), secret, { sessionOnly: input.sessionOnlySecret === true })
      await mutate(async (profiles) => ({ profiles: [...profiles, stored], result: undefined }))
      return present(stored)
    },

    async update(id, input) {
      const normalised = normaliseProfileInput(input)
      const secret = secretOf(input)
      let replaced: SecretKey | null = null
      const updated = await mutate(async (profiles) => {
        const index = await findIndex(profiles, id)
        const previous = profiles[index] as StoredProfile
        const next: StoredProfile = { ...previous, ...normalised, updatedAt: now().toISOString() }
        const changed = secretBoundChanges(previous, normalised)
        if (secret === undefined && changed.length > 0) requireSecretAgain(changed)
        if (secret !== undefined) {
          await secrets.set(keyOf(next), secret, { sessionOnly: input.sessionOnlySecret === true })
          if (keyOf(previous).boundTo !== keyOf(next).boundTo) replaced = keyOf(previous)
        }
        profiles[index] = next
        return { profiles, result: next }
      })
      // After the file: the old secret is removed only once nothing points at it any more.
      if (replaced !== null) await dropSecret(replaced)
      return present(updated)
    },

    async duplicate(id) {
      const copy = await mutate(async (profiles) => {
        const source = profiles[await findIndex(profiles, id)] as StoredProfile
        const stamp = now().toISOString()
        const names = new Set(profiles.map((profile) => profile.name))
        let name = `${source.name} (copy)`
        for (let counter = 2; names.has(name); counter += 1) name = `${source.name} (copy ${counter})`
        const duplicate: StoredProfile = { ...source, id: newId(), name, createdAt: stamp, updatedAt: stamp }
        return { profiles: [...profiles, duplicate], result: duplicate }
      })
      return present(copy)
    },

    async delete(id) {
      const removed = await mutate(async (profiles) => {
        const index = await findIndex(profiles, id)
        const [gone] = profiles.splice(index, 1)
        return { profiles, result: gone as StoredProfile }
      })
      // After the file: if the keychain fails now, the entry is orphaned but the user's intent (gone from the list) holds.
      await secrets.delete(keyOf(removed)).catch((error: unknown) => {
        notices.add({
          level: 'warning',
          message:
            'The connection was deleted, but its secret could not be removed from the system keychain. Remove the "AdOps Desk" entry by hand if it matters to you.',
          details: { error: String(error) },
        })
      })
      const outcomes = await Promise.allSettled([...removedListeners].map(async (listener) => listener(id)))
      const failures = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => String(outcome.reason))
      if (failures.length > 0) {
        notices.add({
          level: 'warning',
          message:
            'The connection was deleted, but some of the data kept for it on this computer could not be removed. It does no harm; it is in the AdOps Desk data folder if you want to delete it by hand.',
          details: { errors: failures },
        })
      }
    },

    onProfileRemoved(listener) {
      removedListeners.add(listener)
      return () => removedListeners.delete(listener)
    },

    async credentials(id) {
      const profiles = await load()
      const stored = profiles[await findIndex(profiles, id)] as StoredProfile
      // Only a secret saved for the servers the profile points at now is found.
      const secret = await secrets.get(keyOf(stored))
      if (secret === null) {
        throw new AppError('auth', `No password or token is stored for "${stored.name}". Edit the connection and enter it.`, { profileId: id })
      }
      return stored.authMethod === 'password' ? { method: 'password', username: stored.username ?? '', password: secret } : { method: 'token', token: secret }
    },
  }
}
