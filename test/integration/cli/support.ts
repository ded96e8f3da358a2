import { Readable, Writable } from 'node:stream'
import { createCliServices, type CliServicesFactory } from '../../../main/cli/services'
import { runCli } from '../../../main/cli/run'
import type { Keychain } from '../../../main/services/secrets/keychain'

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
