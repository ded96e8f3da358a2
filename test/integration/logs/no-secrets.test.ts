import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelName, Outcome } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { createRuntime, type Runtime } from '../../../main/runtime'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { loadKeytar, type Keytar } from '../../../main/services/secrets/keychain'
import { definition } from '../../unit/reports/fixtures'
import { temporaryFolder } from '../../support/services'

// The OS keychain (gnome-keyring in `npm test`), under a service name of this run's own.
const serviceName = `AdOps Desk log test ${randomUUID()}`

/**
 * Everything a user does that involves a secret, through the same runtime and dispatch as the
 * app: connections saved with a real password (in the real keychain) and a permanent token,
 * sign-ins, a failed sign-in, a sync, a report, errors from the page. Then every log file is
 * read: no password, no token, no signed-in address may be in it, at the most verbose level.
 */
describe('the log after real sign-ins', () => {
  let keytar: Keytar
  let sandbox: Sandbox
  let runtime: Runtime
  let logText = ''
  const secrets: Record<string, string> = {}

  const call = async <T = unknown>(channel: ChannelName, input: unknown): Promise<T> => {
    const outcome = (await dispatch(runtime.handlers, channel, input)) as Outcome<T>
    if (!outcome.ok) throw new Error(`${channel}: ${outcome.error.message}`)
    return outcome.value
  }

  beforeAll(async () => {
    keytar = await loadKeytar()
    await keytar.findCredentials(serviceName).catch((error: unknown) => {
      throw new Error(`The OS keychain is not reachable (${String(error)}). Run the tests through "npm test", which starts a D-Bus session with gnome-keyring.`)
    })
    // Embedded: a random password and permanent token, which can only be in the log if leaked.
    sandbox = await startSandbox({ port: 0, embedded: true })
    const { info } = sandbox
    secrets.password = info.password
    secrets.permanentToken = info.permanent_token
    secrets.wrongPassword = `wrong-${randomUUID()}`
    const userDataDir = await temporaryFolder('adops-log-scan-')
    runtime = await createRuntime({
      userDataDir,
      keychainServiceName: serviceName,
      environment: { version: '0.0.0-test', platform: 'test' },
      host: {
        openKeychain: async () => keytar,
        loadSandbox: async () => {
          throw new Error('this test signs in to a sandbox of its own')
        },
        sendEvent: () => undefined,
      },
      http: { retry: { baseDelayMs: 5, maxDelayMs: 50 } },
    })
    await call('app:setLogLevel', { level: 'debug' })
    const connection = { baseUrl: info.base_url, authUrl: info.auth_url, reportUrl: info.report_url, serviceId: info.service_id }

    const withPassword = await call<{ id: string; secretStorage: string }>('profiles:create', {
      name: 'Password',
      ...connection,
      auth: { method: 'password', username: info.username, password: info.password },
    })
    expect(withPassword.secretStorage).toBe('keychain')
    const test = await call<{ workflow: { ok: boolean | null } }>('profiles:test', { id: withPassword.id })
    expect(test.workflow.ok).toBe(true)
    await call('workspace:activate', { profileId: withPassword.id })
    await call('entities:sync', { profileId: withPassword.id, kind: 'publishers' })
    await call('reports:run', {
      profileId: withPassword.id,
      definition: definition({
        project: 'demo',
        report: 'supply',
        dates: { start: '-7d', end: 'yesterday' },
        filters: [],
        filterLogic: '',
        metricConditions: [],
        metricConditionLogic: '',
        breakdown: [],
        comparison: 'none',
      }),
    }).catch(() => undefined)
    const held = await runtime.services.workspace.connection(withPassword.id)
    secrets.workflowToken = held.tokens.workflow.current()?.value ?? ''
    secrets.reportingToken = held.tokens.reporting.current()?.value ?? ''

    const withToken = await call<{ id: string }>('profiles:create', { name: 'Token', ...connection, auth: { method: 'token', token: info.permanent_token } })
    await call('profiles:test', { id: withToken.id })
    await call('entities:sync', { profileId: withToken.id, kind: 'brands' })

    // A refused sign-in: the error, its details and the server's answer are all logged.
    const wrong = await call<{ id: string }>('profiles:create', {
      name: 'Wrong',
      ...connection,
      auth: { method: 'password', username: info.username, password: secrets.wrongPassword },
    })
    const refused = await call<{ workflow: { ok: boolean | null } }>('profiles:test', { id: wrong.id })
    expect(refused.workflow.ok).toBe(false)
    await call('entities:sync', { profileId: wrong.id, kind: 'publishers' }).catch(() => undefined)

    // The page reporting an error whose text carries secrets the way code and servers write them.
    const leakyStack = `Error: request failed\n    headers: {"Authorization":"Bearer ${secrets.workflowToken}"}\n    body: grant_type=password&username=demo&password=${encodeURIComponent(info.password)}\n    at ${info.base_url.replace('://', `://demo:${info.password}@`)}`
    await call('app:reportRendererError', { kind: 'unhandledrejection', message: `Authorization: Bearer ${secrets.reportingToken}`, stack: leakyStack })

    await runtime.close()
    const folder = runtime.services.logsDir
    for (const name of await fs.readdir(folder)) logText += await fs.readFile(path.join(folder, name), 'utf8')
  }, 120_000)

  afterAll(async () => {
    await sandbox?.close()
    for (const { account } of (await keytar?.findCredentials(serviceName)) ?? []) await keytar.deletePassword(serviceName, account)
  })

  it("recorded the flow: start, connection tests, syncs, the refused sign-in, the page's error", () => {
    expect(Object.values(secrets).every((secret) => secret.length >= 16)).toBe(true)
    expect(logText).toMatch(/INFO  AdOps Desk 0\.0\.0-test started/)
    expect(logText).toMatch(/INFO  connection test \S+: workflow ok/)
    expect(logText).toMatch(/WARN  connection test \S+: workflow failed \(auth: /)
    expect(logText).toMatch(/INFO  sync \S+ publishers: \d+ rows/)
    expect(logText).toMatch(/ERROR unhandled unhandledrejection in renderer: Authorization: \*\*\*/)
  })

  it('holds no password and no token, in any form', () => {
    for (const [what, secret] of Object.entries(secrets)) {
      for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
        expect(logText.includes(form), `${what} found in the log`).toBe(false)
      }
    }
    expect(logText).not.toMatch(/:\/\/[^/\s@]+:[^/\s@]+@/)
  })
})
