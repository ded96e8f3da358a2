import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SECRET_INDEX_FILE_NAME } from '../../../main/services/secrets/secret-index'
import { accountOf, createSecretStore } from '../../../main/services/secrets/secret-store'
import { secretBinding } from '../../../main/services/profiles/validation'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { createTestServices, passwordProfile, temporaryFolder, tokenProfile } from '../../support/services'

const serviceName = 'AdOps Desk test'
const key = (profileId: string) => ({ profileId, boundTo: 'https://auth.example.com' })

describe('the secret store reads a secret only when it is needed', () => {
  it('lists profiles, with whether each has a secret, without reading any secret', async () => {
    const keychain = createMemoryKeychain()
    const first = await createTestServices({ keychain })
    const password = await first.profiles.create(passwordProfile)
    await first.profiles.create(tokenProfile)
    await first.profiles.duplicate(password.id)
    keychain.reads.length = 0

    // A restart: nothing is known in memory any more.
    const restarted = await createTestServices({ keychain, userDataDir: first.userDataDir })
    expect(await restarted.secrets.isKeychainAvailable()).toBe(true)
    const listed = await restarted.profiles.list()
    expect(listed.map((profile) => [profile.name, profile.hasSecret, profile.secretStorage])).toEqual([
      ['Production EU', true, 'keychain'],
      ['Staging token', true, 'keychain'],
      ['Production EU (copy)', false, 'none'],
    ])
    expect(keychain.reads).toEqual([])

    // Signing in is when a secret is read: that one, once.
    expect(await restarted.profiles.credentials(password.id)).toMatchObject({ password: passwordProfile.auth.password })
    expect(keychain.reads).toEqual([accountOf({ profileId: password.id, boundTo: secretBinding(password) })])
  })

  it('keeps profile ids on disk, never a secret', async () => {
    const services = await createTestServices()
    const created = await services.profiles.create(passwordProfile)
    const index = await fs.readFile(path.join(services.userDataDir, SECRET_INDEX_FILE_NAME), 'utf8')
    expect(index).toContain(created.id)
    expect(index).not.toContain(passwordProfile.auth.password)
    await services.profiles.delete(created.id)
    expect(await fs.readFile(path.join(services.userDataDir, SECRET_INDEX_FILE_NAME), 'utf8')).not.toContain(created.id)
  })

  it('looks up profiles saved before the index once each, then answers from the index', async () => {
    const keychain = createMemoryKeychain()
    const first = await createTestServices({ keychain })
    const password = await first.profiles.create(passwordProfile)
    const copy = await first.profiles.duplicate(password.id)
    await fs.rm(path.join(first.userDataDir, SECRET_INDEX_FILE_NAME))
    keychain.reads.length = 0

    const upgraded = await createTestServices({ keychain, userDataDir: first.userDataDir })
    expect((await upgraded.profiles.list()).map((profile) => profile.hasSecret)).toEqual([true, false])
    const account = accountOf({ profileId: password.id, boundTo: secretBinding(password) })
    expect(keychain.reads).toEqual([account])

    const again = await createTestServices({ keychain, userDataDir: first.userDataDir })
    expect((await again.profiles.list()).map((profile) => profile.hasSecret)).toEqual([true, false])
    expect(await again.profiles.get(copy.id)).toMatchObject({ hasSecret: false })
    expect(keychain.reads).toEqual([account])
  })

  it('corrects the index when reading a secret shows it was wrong (an entry removed by hand)', async () => {
    const keychain = createMemoryKeychain()
    const services = await createTestServices({ keychain })
    const created = await services.profiles.create(tokenProfile)
    keychain.entries.clear()
    await expect(services.profiles.credentials(created.id)).rejects.toMatchObject({ code: 'auth' })
    expect(await services.profiles.get(created.id)).toMatchObject({ hasSecret: false, secretStorage: 'none' })
  })
})

describe('secrets bound to where they may be sent', () => {
  it('files a secret under the profile id and the origins of its addresses', async () => {
    const keychain = createMemoryKeychain()
    const services = await createTestServices({ keychain })
    const created = await services.profiles.create(passwordProfile)
    expect([...keychain.entries.keys()]).toEqual([
      `${serviceName}\u0000${created.id} for https://auth.example.com https://reports.example.com https://workflow.example.com`,
    ])
  })

  it("takes a secret saved before binding (under the bare profile id) as bound to today's addresses, once", async () => {
    const keychain = createMemoryKeychain()
    const first = await createTestServices({ keychain })
    const created = await first.profiles.create(tokenProfile)
    // The file layout of the version before binding: the secret under the profile id, indexed by it.
    keychain.entries.clear()
    await keychain.setPassword(serviceName, created.id, tokenProfile.auth.token)
    await fs.writeFile(
      path.join(first.userDataDir, SECRET_INDEX_FILE_NAME),
      JSON.stringify({ version: 1, services: { [serviceName]: { [created.id]: true } } }),
    )

    const upgraded = await createTestServices({ keychain, userDataDir: first.userDataDir })
    expect(await upgraded.profiles.get(created.id)).toMatchObject({ hasSecret: true })
    expect(await upgraded.profiles.credentials(created.id)).toEqual({ method: 'token', token: tokenProfile.auth.token })
    expect([...keychain.entries.keys()]).toEqual([`${serviceName}\u0000${accountOf({ profileId: created.id, boundTo: secretBinding(created) })}`])
    expect(await fs.readFile(path.join(first.userDataDir, SECRET_INDEX_FILE_NAME), 'utf8')).not.toContain(`"${created.id}"`)
  })
})

describe('a keychain that is locked or missing at start', () => {
  it('is asked again later, and used once it answers', async () => {
    const keychain = createMemoryKeychain()
    keychain.locked = true
    const secrets = createSecretStore({ openKeychain: async () => keychain, serviceName, userDataDir: await temporaryFolder() })
    expect(await secrets.isKeychainAvailable()).toBe(false)
    expect(await secrets.set(key('profile-1'), 'kept for the session', { sessionOnly: true })).toBe('session')
    await expect(secrets.set(key('profile-2'), 'needs the keychain')).rejects.toMatchObject({ code: 'keychain_unavailable' })

    keychain.locked = false
    expect(await secrets.isKeychainAvailable()).toBe(true)
    expect(await secrets.set(key('profile-2'), 'needs the keychain')).toBe('keychain')
    expect(await secrets.get(key('profile-2'))).toBe('needs the keychain')
  })

  it('is asked again when the module itself failed to load at first', async () => {
    const keychain = createMemoryKeychain()
    let attempts = 0
    const secrets = createSecretStore({
      openKeychain: async () => {
        attempts += 1
        if (attempts === 1) throw new Error('Cannot find module keytar.node')
        return keychain
      },
      serviceName,
      userDataDir: await temporaryFolder(),
    })
    expect(await secrets.isKeychainAvailable()).toBe(false)
    expect(await secrets.isKeychainAvailable()).toBe(true)
    expect(attempts).toBe(2)
  })

  it('still shows which profiles have a secret, and says the keychain is locked when one is needed', async () => {
    const keychain = createMemoryKeychain()
    const first = await createTestServices({ keychain })
    const created = await first.profiles.create(passwordProfile)
    keychain.locked = true
    const restarted = await createTestServices({ keychain, userDataDir: first.userDataDir })
    expect(await restarted.profiles.get(created.id)).toMatchObject({ hasSecret: true, secretStorage: 'keychain' })
    await expect(restarted.profiles.credentials(created.id)).rejects.toMatchObject({
      code: 'keychain_unavailable',
      message: expect.stringContaining('Unlock the keychain'),
    })
    keychain.locked = false
    expect(await restarted.profiles.credentials(created.id)).toMatchObject({ password: passwordProfile.auth.password })
  })
})
