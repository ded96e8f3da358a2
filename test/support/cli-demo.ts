import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { startSandbox, type Sandbox } from '../../main/sandbox'
import { memoryKeychain, runInProcess, saveDemoProfile, testServices, type CliRun } from '../integration/cli/support'

/**
 * What the command line's integration tests share: the demo backend on a free port, a user
 * data folder holding a saved connection "Demo" to it (its password in a keychain in memory),
 * a work folder for the files a test writes, and `cli` running a command in-process against
 * them. Registers its own beforeAll/afterAll; read the fields inside tests (they are set then).
 */
export interface CliDemo {
  sandbox: Sandbox
  userData: string
  work: string
  /** The environment a command sees: the user data folder and the keychain service, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>
  cli(argv: string[], options?: { env?: Record<string, string>; stdin?: string; signal?: AbortSignal }): Promise<CliRun>
}

export function useCliDemo(name: string): CliDemo {
  const keychainService = `AdOps Desk CLI ${name} tests`
  const keychain = memoryKeychain()
  const services = testServices(keychain)
  let sandbox: Sandbox | null = null
  let userData = ''
  let work = ''
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({ ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: keychainService, ...extra })

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
    userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-user-'))
    work = await mkdtemp(path.join(os.tmpdir(), `adops-cli-${name}-`))
    await saveDemoProfile({ info: sandbox.info, userData, keychain, keychainService })
  })
  afterAll(async () => {
    await sandbox?.close()
    await rm(userData, { recursive: true, force: true })
    await rm(work, { recursive: true, force: true })
  })

  return {
    get sandbox(): Sandbox {
      if (sandbox === null) throw new Error('the demo backend starts in beforeAll: use it inside a test')
      return sandbox
    },
    get userData() {
      return userData
    },
    get work() {
      return work
    },
    env,
    cli: (argv, options = {}) =>
      runInProcess(argv, {
        services,
        env: options.env ?? env(),
        ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
  }
}
