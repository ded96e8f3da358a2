import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadKeytar, type Keytar } from '../../../main/services/secrets/keychain'
import { accountOf } from '../../../main/services/secrets/secret-store'
import { secretBinding } from '../../../main/services/profiles/validation'
import { createTestServices, passwordProfile, tokenProfile } from '../../support/services'

// The OS keychain itself (gnome-keyring over D-Bus in CI; see test/with-keyring.sh).
// A unique service name per run keeps this away from anyone's real AdOps Desk entries.
const serviceName = `AdOps Desk test ${randomUUID()}`

describe('secrets in the real OS keychain', () => {
  let keytar: Keytar

  beforeAll(async () => {
    keytar = await loadKeytar()
    await keytar.findCredentials(serviceName).catch((error: unknown) => {
      throw new Error(`The OS keychain is not reachable (${String(error)}). Run the tests through "npm test", which starts a D-Bus session with gnome-keyring.`)
    })
  })

  afterAll(async () => {
    for (const { account } of await keytar.findCredentials(serviceName)) await keytar.deletePassword(serviceName, account)
  })

  it('sets a secret, reads it back in main, replaces it, and deletes it with the profile', async () => {
    const services = await createTestServices({ keychain: keytar, serviceName })
    expect(await services.secrets.isKeychainAvailable()).toBe(true)

    const created = await services.profiles.create(passwordProfile)
    expect(created.secretStorage).toBe('keychain')
    const account = accountOf({ profileId: created.id, boundTo: secretBinding(created) })
    expect(await keytar.getPassword(serviceName, account)).toBe(passwordProfile.auth.password)
    expect(await services.profiles.credentials(created.id)).toMatchObject({ password: passwordProfile.auth.password })

    await services.profiles.update(created.id, { ...passwordProfile, auth: { method: 'password', username: 'ops@example.com', password: 'the-replacement' } })
    expect(await keytar.getPassword(serviceName, account)).toBe('the-replacement')
    expect((await keytar.findCredentials(serviceName)).filter((entry) => entry.account.startsWith(created.id))).toHaveLength(1)

    await services.profiles.delete(created.id)
    expect(await keytar.getPassword(serviceName, account)).toBeNull()
    expect(await keytar.findCredentials(serviceName)).toEqual([])
  })

  it('keeps one entry per profile and reads the right one after a restart', async () => {
    const first = await createTestServices({ keychain: keytar, serviceName })
    const password = await first.profiles.create(passwordProfile)
    const token = await first.profiles.create(tokenProfile)
    const restarted = await createTestServices({ keychain: keytar, serviceName, userDataDir: first.userDataDir })
    expect(await restarted.profiles.credentials(password.id)).toEqual({
      method: 'password',
      username: 'ops@example.com',
      password: passwordProfile.auth.password,
    })
    expect(await restarted.profiles.credentials(token.id)).toEqual({ method: 'token', token: tokenProfile.auth.token })
    const duplicate = await restarted.profiles.duplicate(token.id)
    expect((await keytar.findCredentials(serviceName)).filter((entry) => entry.account.startsWith(duplicate.id))).toEqual([])
    for (const profile of await restarted.profiles.list()) await restarted.profiles.delete(profile.id)
    expect(await keytar.findCredentials(serviceName)).toEqual([])
  })
})
