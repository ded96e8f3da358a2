import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { normaliseServiceUrl } from '../../../main/services/profiles/validation'
import { AppError } from '../../../main/services/errors'
import { createBrokenKeychain, createMemoryKeychain } from '../../support/memory-keychain'
import { createTestServices, passwordProfile, temporaryFolder, tokenProfile } from '../../support/services'

describe('service URL validation', () => {
  it.each([
    ['', 'Required'],
    ['not a url', 'Not a valid address'],
    ['ftp://example.com', 'Only http:// and https://'],
    ['javascript:alert(1)', 'Only http:// and https://'],
    ['https://user:pass@example.com/api', 'Remove the user name and password'],
    ['https://example.com/api?x=1', 'must not contain ? or #'],
  ])('rejects %j with a message', (value, message) => {
    const result = normaliseServiceUrl(value)
    expect('error' in result && result.error).toContain(message)
  })

  it.each([
    'http://workflow.example.com/api/v1',
    'http://10.0.0.5:8080',
    'http://localhost.example.com',
    'http://127.0.0.1.example.com',
    'http://[::2]:8787',
    'HTTP://API.EXAMPLE.COM',
  ])('refuses the cleartext address %j, saying why', (value) => {
    const result = normaliseServiceUrl(value)
    expect('error' in result && result.error).toMatch(/https:\/\/.*password.*token.*unencrypted/i)
  })

  it.each([
    ['http://127.0.0.1:8787/', 'http://127.0.0.1:8787'],
    ['http://127.1.2.3/api', 'http://127.1.2.3/api'],
    ['http://localhost:9000/auth', 'http://localhost:9000/auth'],
    ['http://LOCALHOST', 'http://localhost'],
    ['http://[::1]:8787/report', 'http://[::1]:8787/report'],
  ])('allows plain http:// to this computer only: %j', (value, url) => {
    expect(normaliseServiceUrl(value)).toEqual({ url })
  })

  it('reports a cleartext address at its field, every field at once', async () => {
    const services = await createTestServices()
    const error = await services.profiles
      .create({ ...passwordProfile, baseUrl: 'http://workflow.example.com', reportUrl: 'http://reports.example.com' })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AppError)
    const fields = (error as AppError).details?.fields as Record<string, string[]>
    expect(Object.keys(fields).sort()).toEqual(['baseUrl', 'reportUrl'])
    expect(fields.baseUrl?.[0]).toContain('unencrypted')
    expect(await services.profiles.list()).toEqual([])
  })

  it('normalises trailing slashes and keeps the path', () => {
    expect(normaliseServiceUrl('  https://API.example.com/workflow/v1///  ')).toEqual({ url: 'https://api.example.com/workflow/v1' })
    expect(normaliseServiceUrl('http://127.0.0.1:8787/')).toEqual({ url: 'http://127.0.0.1:8787' })
  })
})

describe('profile store', () => {
  it('creates profiles with normalised URLs, secrets in the keychain and none on disk', async () => {
    const keychain = createMemoryKeychain()
    const services = await createTestServices({ keychain })
    const created = await services.profiles.create(passwordProfile)
    expect(created).toMatchObject({
      name: 'Production EU',
      baseUrl: 'https://workflow.example.com/api/v1',
      reportUrl: 'https://reports.example.com',
      reportServiceId: null,
      authMethod: 'password',
      username: 'ops@example.com',
      hasSecret: true,
      secretStorage: 'keychain',
    })
    expect(JSON.stringify(created)).not.toContain(passwordProfile.auth.password)
    const onDisk = await fs.readFile(path.join(services.userDataDir, 'profiles.json'), 'utf8')
    expect(onDisk).not.toContain(passwordProfile.auth.password)
    expect(JSON.parse(onDisk)).toMatchObject({ version: 1, profiles: [{ id: created.id, name: 'Production EU' }] })
    expect(await services.profiles.credentials(created.id)).toEqual({
      method: 'password',
      username: 'ops@example.com',
      password: passwordProfile.auth.password,
    })
  })

  it('rejects invalid URLs with a message per field and saves nothing', async () => {
    const services = await createTestServices()
    const attempt = services.profiles.create({ ...passwordProfile, baseUrl: 'ftp://x', authUrl: 'https://u:p@auth.example.com', reportUrl: 'nope' })
    await expect(attempt).rejects.toBeInstanceOf(AppError)
    const error = (await attempt.catch((caught: unknown) => caught)) as AppError
    expect(error.code).toBe('validation')
    expect(error.details?.fields).toEqual({
      baseUrl: ['Only http:// and https:// addresses are supported'],
      authUrl: [expect.stringContaining('Remove the user name and password')],
      reportUrl: [expect.stringContaining('Not a valid address')],
    })
    expect(await services.profiles.list()).toEqual([])
  })

  it('requires a secret on create and when the sign-in method changes, keeps it otherwise', async () => {
    const services = await createTestServices()
    await expect(services.profiles.create({ ...passwordProfile, auth: { method: 'password', username: 'x' } })).rejects.toMatchObject({ code: 'validation' })
    const created = await services.profiles.create(passwordProfile)
    const renamed = await services.profiles.update(created.id, {
      ...passwordProfile,
      name: 'Renamed',
      auth: { method: 'password', username: 'ops@example.com' },
    })
    expect(renamed).toMatchObject({ name: 'Renamed', hasSecret: true })
    expect(await services.profiles.credentials(created.id)).toMatchObject({ password: passwordProfile.auth.password })
    await expect(services.profiles.update(created.id, { ...passwordProfile, auth: { method: 'token' } })).rejects.toMatchObject({ code: 'validation' })
    const switched = await services.profiles.update(created.id, { ...passwordProfile, auth: { method: 'token', token: 'new-token' } })
    expect(switched).toMatchObject({ authMethod: 'token', username: null })
    expect(await services.profiles.credentials(created.id)).toEqual({ method: 'token', token: 'new-token' })
  })

  it('duplicates without the secret and with a distinct name', async () => {
    const services = await createTestServices()
    const created = await services.profiles.create(tokenProfile)
    const first = await services.profiles.duplicate(created.id)
    const second = await services.profiles.duplicate(created.id)
    expect(first).toMatchObject({ name: 'Staging token (copy)', hasSecret: false, secretStorage: 'none', reportServiceId: 'reports' })
    expect(second.name).toBe('Staging token (copy 2)')
    expect(first.id).not.toBe(created.id)
    await expect(services.profiles.credentials(first.id)).rejects.toMatchObject({ code: 'auth' })
  })

  it('deleting a profile deletes its secret', async () => {
    const keychain = createMemoryKeychain()
    const services = await createTestServices({ keychain })
    const created = await services.profiles.create(passwordProfile)
    expect(keychain.entries.size).toBe(1)
    await services.profiles.delete(created.id)
    expect(keychain.entries.size).toBe(0)
    expect(await services.profiles.list()).toEqual([])
    await expect(services.profiles.delete(created.id)).rejects.toMatchObject({ code: 'not_found' })
  })

  it('survives a restart: a second store over the same folder sees the same profiles', async () => {
    const keychain = createMemoryKeychain()
    const first = await createTestServices({ keychain })
    await first.profiles.create(passwordProfile)
    await first.profiles.create(tokenProfile)
    const second = await createTestServices({ keychain, userDataDir: first.userDataDir })
    expect((await second.profiles.list()).map((profile) => profile.name).sort()).toEqual(['Production EU', 'Staging token'])
  })

  it('moves a corrupt profiles file aside, reports it, and starts empty', async () => {
    const userDataDir = await temporaryFolder()
    await fs.writeFile(path.join(userDataDir, 'profiles.json'), 'this is not json')
    const services = await createTestServices({ userDataDir })
    expect(await services.profiles.list()).toEqual([])
    const notices = services.notices.list()
    expect(notices).toHaveLength(1)
    expect(notices[0]?.level).toBe('error')
    expect(notices[0]?.message).toMatch(/could not be read.*moved aside/)
    // Said relative to the data folder (no absolute path reaches the page).
    const moved = String(notices[0]?.details?.movedTo)
    expect(path.isAbsolute(moved)).toBe(false)
    expect(await fs.readFile(path.join(userDataDir, moved), 'utf8')).toBe('this is not json')
    // The app keeps working: new profiles are saved to a fresh file.
    await services.profiles.create(passwordProfile)
    expect(await services.profiles.list()).toHaveLength(1)
  })

  it('without a keychain: refuses to save the secret unless the user chose this session only', async () => {
    const services = await createTestServices({ keychain: createBrokenKeychain() })
    expect(await services.secrets.isKeychainAvailable()).toBe(false)
    await expect(services.profiles.create(passwordProfile)).rejects.toMatchObject({ code: 'keychain_unavailable' })
    expect(await services.profiles.list()).toEqual([])
    const created = await services.profiles.create({ ...passwordProfile, sessionOnlySecret: true })
    expect(created).toMatchObject({ hasSecret: true, secretStorage: 'session' })
    expect(await services.profiles.credentials(created.id)).toMatchObject({ password: passwordProfile.auth.password })
    // Every file, the log folder's included.
    const onDisk = await fs.readdir(services.userDataDir, { recursive: true, withFileTypes: true })
    for (const entry of onDisk.filter((found) => found.isFile()))
      expect(await fs.readFile(path.join(entry.parentPath, entry.name), 'utf8')).not.toContain(passwordProfile.auth.password)
    // A restart forgets it: the secret was never written anywhere.
    const restarted = await createTestServices({ keychain: createBrokenKeychain(), userDataDir: services.userDataDir })
    expect(await restarted.profiles.list()).toMatchObject([{ hasSecret: false, secretStorage: 'none' }])
  })
})
