import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { createNotices } from '../../../main/services/notices'
import { createProfileStore } from '../../../main/services/profiles/profile-store'
import { createSecretStore } from '../../../main/services/secrets/secret-store'
import { memoryKeychain, ownLines, runInProcess, testServices, type CliRun } from './support'

const KEYCHAIN_SERVICE = 'AdOps Desk CLI credential tests'
const PASSWORD = 'Wr0ng-Pa55word-9f3k'
const TOKEN = 'T0ken-Never-Printed-7q2z'
const STORED = 'St0red-Secret-Never-Printed-4m8x'

let sandbox: Sandbox
let echoing: Server
let echoUrl: string
let userData: string
const keychain = memoryKeychain()
const services = testServices(keychain)

/** A token service that quotes back what it was sent in its error, as a careless one might. */
function startEchoingTokenService(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      response.writeHead(400, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ detail: `Bad request ${decodeURIComponent(body)} (${request.headers.authorization ?? 'no header'})` }))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  echoing = await startEchoingTokenService()
  echoUrl = `http://127.0.0.1:${(echoing.address() as AddressInfo).port}`
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-credentials-'))
  const secrets = createSecretStore({ openKeychain: async () => keychain, serviceName: KEYCHAIN_SERVICE, userDataDir: userData })
  const profiles = createProfileStore({ userDataDir: userData, secrets, notices: createNotices() })
  await profiles.create({
    name: 'Echo',
    baseUrl: `${echoUrl}/wf`,
    authUrl: `${echoUrl}/auth`,
    reportUrl: `${echoUrl}/report`,
    serviceId: 'demo',
    auth: { method: 'token', token: STORED },
  })
})
afterAll(async () => {
  await sandbox.close()
  await new Promise((resolve) => echoing.close(resolve))
  await rm(userData, { recursive: true, force: true })
})

const env = (extra: Record<string, string> = {}): Record<string, string> => ({ ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE, ...extra })
const cli = (argv: string[], extra: Record<string, string> = {}): Promise<CliRun> => runInProcess(argv, { services, env: env(extra) })

/** Exit code, one line on stderr matching the pattern, and no secret anywhere in the output. */
function expectRefusal(run: CliRun, code: 1 | 2, pattern: RegExp): void {
  expect(run.code).toBe(code)
  expect(run.stdout).toBe('')
  const lines = ownLines(run.stderr)
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(pattern)
  for (const secret of [PASSWORD, TOKEN, STORED, 'hunter2']) expect(run.stderr).not.toContain(secret)
}

const flagsTo = (urls: { base?: string; auth?: string }): string[] => [
  '--base-url',
  urls.base ?? sandbox.info.base_url,
  '--auth-url',
  urls.auth ?? sandbox.info.auth_url,
  '--service-id',
  'demo',
]

describe('credentials in connection flags', () => {
  it.each([
    ['--base-url', { base: 'https://ops:hunter2@workflow.example.com/v1' }],
    ['--auth-url', { auth: 'http://ops:hunter2@127.0.0.1:9/auth' }],
  ])('%s with user:password@ is refused with a sentence, and the password is not repeated', async (flag, urls) => {
    const run = await cli(['entities', 'get', 'publishers', '1', ...flagsTo(urls)], { ADOPS_TOKEN: TOKEN })
    expectRefusal(run, 2, new RegExp(`^adops-desk: ${flag} must not contain a user name or password.*ADOPS_PASSWORD`))
  })

  it('an address that cannot be read is not repeated either (it may hold a password)', async () => {
    const run = await cli(['entities', 'get', 'publishers', '1', ...flagsTo({ base: 'https://ops:hunter2@work flow.example.com' })], { ADOPS_TOKEN: TOKEN })
    expectRefusal(run, 2, /^adops-desk: --base-url is not a valid address/)
  })

  it('plain http:// to another computer is refused: the password would cross the network unencrypted', async () => {
    const run = await cli(['entities', 'get', 'publishers', '1', ...flagsTo({ auth: 'http://auth.example.com' })], { ADOPS_TOKEN: TOKEN })
    expectRefusal(run, 2, /^adops-desk: --auth-url: Use an https:\/\/ address: .*unencrypted/)
  })
})

describe('error output never holds a secret', () => {
  it('a wrong password', async () => {
    const run = await cli(['entities', 'get', 'publishers', '1', ...flagsTo({}), '--username', 'demo'], { ADOPS_PASSWORD: PASSWORD })
    expectRefusal(run, 1, /Sign-in rejected.*\[HTTP 401\]$/)
  })

  it('a token service that quotes the password, token or stored secret back', async () => {
    expectRefusal(
      await cli(['entities', 'get', 'publishers', '1', ...flagsTo({ base: `${echoUrl}/wf`, auth: `${echoUrl}/auth` }), '--username', 'demo'], {
        ADOPS_PASSWORD: PASSWORD,
      }),
      1,
      /Bad request.*\*\*\*/,
    )
    expectRefusal(
      await cli(['entities', 'get', 'publishers', '1', ...flagsTo({ base: `${echoUrl}/wf`, auth: `${echoUrl}/auth` })], { ADOPS_TOKEN: TOKEN }),
      1,
      /Bad request.*\*\*\*/,
    )
    expectRefusal(await cli(['entities', 'get', 'publishers', '1', '--profile', 'Echo']), 1, /Bad request.*\*\*\*/)
  })
})

describe("the command line's log", () => {
  it('has one line per command run above, and none of their secrets', async () => {
    const log = await readFile(path.join(userData, 'logs', 'cli.log'), 'utf8')
    expect(log).toMatch(/WARN  cli entities get: Sign-in rejected/)
    expect(log).toMatch(/WARN  cli entities get: .*Bad request/)
    for (const secret of [PASSWORD, TOKEN, STORED, 'hunter2']) expect(log).not.toContain(secret)
  })
})
