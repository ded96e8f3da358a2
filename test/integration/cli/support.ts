import { Readable, Writable } from 'node:stream'
import { createCliServices, type CliServicesFactory } from '../../../main/cli/services'
import { runCli } from '../../../main/cli/run'
import type { Keychain } from '../../../main/services/secrets/keychain'

/** The OS keychain's interface over a Map: tests never touch the user's real keychain. */
export function memoryKeychain(): Keychain & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  const key = (service: string, account: string): string => `${service}\u0000${account}`
  return {
    entries,
    getPassword: async (service, account) => entries.get(key(service, account)) ?? null,
    setPassword: async (service, account, password) => {
      entries.set(key(service, account), password)
    },
    deletePassword: async (service, account) => entries.delete(key(service, account)),
    findCredentials: async (service) =>
      [...entries.entries()].filter(([name]) => name.startsWith(`${service}\u0000`)).map(([name, password]) => ({ account: name.slice(service.length + 1), password })),
  }
}

/** Services as the CLI builds them, over the in-memory keychain and with retries that take milliseconds. */
export function testServices(keychain: Keychain): CliServicesFactory {
  return (context) => createCliServices(context, { openKeychain: async () => keychain, http: { random: () => 0.5, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 } } })
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

export async function runInProcess(argv: string[], options: { env?: Record<string, string | undefined>; stdin?: string; services: CliServicesFactory; signal?: AbortSignal }): Promise<CliRun> {
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
