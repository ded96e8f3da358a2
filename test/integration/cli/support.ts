import { Readable, Writable } from 'node:stream'
import { createCliServices, type CliServicesFactory } from '../../../main/cli/services'
import { runCli } from '../../../main/cli/run'
import { expect } from 'vitest'
import type { SandboxInfo } from '../../../main/sandbox'
import { createNotices, type Notices } from '../../../main/services/notices'
import { createProfileStore } from '../../../main/services/profiles/profile-store'
import type { Keychain } from '../../../main/services/secrets/keychain'
import { createSecretStore } from '../../../main/services/secrets/secret-store'

/** The OS keychain's interface over a Map: tests never touch the user's real keychain. */
export { createMemoryKeychain as memoryKeychain } from '../../support/memory-keychain'

/** Services as the CLI builds them, over the in-memory keychain and with retries that take milliseconds. */
export function testServices(keychain: Keychain): CliServicesFactory {
  return (context) =>
    createCliServices(context, { openKeychain: async () => keychain, http: { random: () => 0.5, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 } } })
}

class Collector extends Writable {
  text = ''
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.text += chunk.toString()
    callback()
  }
}

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export async function runInProcess(
  argv: string[],
  options: { env?: Record<string, string | undefined>; stdin?: string; services: CliServicesFactory; signal?: AbortSignal },
): Promise<CliRun> {
  const stdout = new Collector()
  const stderr = new Collector()
  const code = await runCli({
    argv,
    env: options.env ?? {},
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdout,
    stderr,
    services: options.services,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  return { code, stdout: stdout.text, stderr: stderr.text }
}

/** stderr without the noise npx adds about the machine's npm configuration. */
export function ownLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'))
}

/** A command that worked: exit 0 and nothing on stderr. */
export function expectSuccess(run: CliRun): void {
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
}

/** A command that failed: one line on stderr, nothing on stdout, and the exit code. */
export function expectFailure(run: CliRun, code: 1 | 2, pattern: RegExp): void {
  expect(run.code).toBe(code)
  expect(run.stdout).toBe('')
  const lines = ownLines(run.stderr)
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(pattern)
}

/** A connection to the sandbox given by flags (the password comes from the environment). */
export function sandboxFlags(info: SandboxInfo, options: { withBaseUrl?: boolean } = {}): string[] {
  return [
    ...(options.withBaseUrl === false ? [] : ['--base-url', info.base_url]),
    ...['--auth-url', info.auth_url, '--report-url', info.report_url, '--service-id', 'demo', '--username', 'demo'],
  ]
}

/** A saved connection to the sandbox named "Demo", made the way the app makes them, its password in the keychain. */
export async function saveDemoProfile(options: {
  info: SandboxInfo
  userData: string
  keychain: Keychain
  keychainService: string
  notices?: Notices
}): Promise<void> {
  const secrets = createSecretStore({ openKeychain: async () => options.keychain, serviceName: options.keychainService, userDataDir: options.userData })
  const profiles = createProfileStore({ userDataDir: options.userData, secrets, notices: options.notices ?? createNotices() })
  await profiles.create({
    name: 'Demo',
    baseUrl: options.info.base_url,
    authUrl: options.info.auth_url,
    reportUrl: options.info.report_url,
    serviceId: options.info.service_id,
    auth: { method: 'password', username: 'demo', password: 'demo' },
  })
}
