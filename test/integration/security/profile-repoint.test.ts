import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProfileInput } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers, type Handlers } from '../../../main/handlers/handlers'
import { createMemoryKeychain, type MemoryKeychain } from '../../support/memory-keychain'
import { createTestServices } from '../../support/services'
import { platformAnswers, startStubServer, type StubServer } from './support'

/**
 * A page that was taken over must not be able to send a stored secret to a server of its
 * choosing by editing the connection's addresses and then asking for a connection test.
 */
const PASSWORD = 'the-stored-PASSWORD-4d9e1c'
const TOKEN = 'the-stored-TOKEN-77a0b3'

let platform: StubServer
let hostile: StubServer

beforeAll(async () => {
  platform = await startStubServer(platformAnswers)
  hostile = await startStubServer(platformAnswers)
})
afterAll(async () => {
  await platform.close()
  await hostile.close()
})

let keychain: MemoryKeychain
let handlers: Handlers
let userDataDir: string

beforeEach(async () => {
  keychain = createMemoryKeychain()
  const services = await createTestServices({ keychain })
  userDataDir = services.userDataDir
  handlers = createHandlers(services, { nativeSaveDialog: false })
  hostile.requests.length = 0
})

function legitimate(): ProfileInput {
  return {
    name: 'Production',
    baseUrl: `${platform.url}/wf`,
    authUrl: `${platform.url}/auth`,
    reportUrl: `${platform.url}/rep`,
    serviceId: '1234',
    reportServiceId: '',
    defaultProject: 'demo',
    defaultSlicer: 'supply',
    auth: { method: 'password', username: 'ops@example.com', password: PASSWORD },
  }
}

async function call(
  channel: Parameters<typeof dispatch>[1],
  input: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string; details?: Record<string, unknown> } }> {
  return (await dispatch(handlers, channel, input)) as never
}

async function created(input: ProfileInput = legitimate()): Promise<string> {
  const outcome = await call('profiles:create', input)
  expect(outcome.ok).toBe(true)
  return (outcome.value as { id: string }).id
}

/** The form as the page would send it: the same profile with some fields changed and no secret. */
function withoutSecret(changes: Partial<ProfileInput>): ProfileInput {
  const base = legitimate()
  const auth = changes.auth ?? { method: 'password' as const, username: 'ops@example.com' }
  return { ...base, ...changes, auth }
}

async function expectNothingSentToHostile(id: string): Promise<void> {
  const test = await call('profiles:test', { id })
  expect(test.ok).toBe(true)
  expect(hostile.received()).not.toContain(PASSWORD)
  expect(hostile.received()).not.toContain(TOKEN)
}

describe('re-pointing a connection without entering its secret again', () => {
  it.each([
    ['the sign-in address', { authUrl: '{hostile}/auth' }],
    ['the workflow address', { baseUrl: '{hostile}/wf' }],
    ['the reporting address', { reportUrl: '{hostile}/rep' }],
    ['the workflow service id', { serviceId: '9999' }],
    ['the reporting service id', { reportServiceId: '8888' }],
    ['the user name', { auth: { method: 'password' as const, username: 'attacker@example.com' } }],
    ['the sign-in method', { auth: { method: 'token' as const } }],
  ])('is refused with a field error asking for the secret when %s changes', async (_what, raw) => {
    const id = await created()
    const changes = JSON.parse(JSON.stringify(raw).replaceAll('{hostile}', hostile.url)) as Partial<ProfileInput>
    const outcome = await call('profiles:update', { id, profile: withoutSecret(changes) })
    expect(outcome.ok).toBe(false)
    expect(outcome.error?.code).toBe('validation')
    expect(outcome.error?.details?.fields).toMatchObject({ secret: [expect.stringMatching(/again/)] })
    // Nothing changed: the connection still points where it did, with its secret.
    const listed = await call('profiles:list', {})
    expect(listed.value).toMatchObject([{ id, authUrl: `${platform.url}/auth`, baseUrl: `${platform.url}/wf`, serviceId: '1234', hasSecret: true }])
    await expectNothingSentToHostile(id)
  })

  it('keeps the secret when only the name or the test report changes', async () => {
    const id = await created()
    const outcome = await call('profiles:update', { id, profile: withoutSecret({ name: 'Renamed', defaultSlicer: 'demand' }) })
    expect(outcome).toMatchObject({ ok: true, value: { name: 'Renamed', hasSecret: true } })
    const test = await call('profiles:test', { id })
    expect(test).toMatchObject({ ok: true, value: { workflow: { ok: true } } })
    expect(platform.received()).toContain(encodeURIComponent(PASSWORD))
  })

  it('re-pointed with a new secret: the new one is used there, and the old one is gone from the keychain', async () => {
    const id = await created()
    const outcome = await call('profiles:update', {
      id,
      profile: withoutSecret({ authUrl: `${hostile.url}/auth`, auth: { method: 'password', username: 'ops@example.com', password: 'a-new-password' } }),
    })
    expect(outcome).toMatchObject({ ok: true, value: { hasSecret: true } })
    expect([...keychain.entries.values()]).toEqual(['a-new-password'])
    await expectNothingSentToHostile(id)
    expect(hostile.received()).toContain('a-new-password')
  })

  it('a token connection re-pointed by hand in the profiles file cannot use its token there', async () => {
    const id = await created({ ...legitimate(), auth: { method: 'token', token: TOKEN } })
    await repointOnDisk(id, hostile.url)
    const test = await call('profiles:test', { id })
    expect(test).toMatchObject({ ok: true, value: { workflow: { ok: false, error: { code: 'auth' } } } })
    expect(hostile.received()).not.toContain(TOKEN)
  })

  it('a password connection re-pointed by hand in the profiles file never sends its password there', async () => {
    const id = await created()
    await repointOnDisk(id, hostile.url)
    await expectNothingSentToHostile(id)
    expect((await call('profiles:list', {})).value).toMatchObject([{ id, hasSecret: false }])
  })
})

/** What a bug, or anything else that writes the file behind the store's back, could do; then a restart. */
async function repointOnDisk(id: string, origin: string): Promise<void> {
  const file = path.join(userDataDir, 'profiles.json')
  const stored = JSON.parse(await fs.readFile(file, 'utf8')) as { profiles: Array<Record<string, unknown>> }
  for (const profile of stored.profiles) {
    if (profile.id !== id) continue
    profile.authUrl = `${origin}/auth`
    profile.baseUrl = `${origin}/wf`
    profile.reportUrl = `${origin}/rep`
  }
  await fs.writeFile(file, JSON.stringify(stored))
  handlers = createHandlers(await createTestServices({ keychain, userDataDir }), { nativeSaveDialog: false })
}
