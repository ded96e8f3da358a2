/**
 * `npm run preview:web -- --port P [--user-data DIR] [--host H]`
 * Serves the built renderer with window.api wired to the real main-process handlers.
 * Without --user-data, a temporary folder is used and removed on exit.
 * --host is a loopback address (127.0.0.1, localhost or ::1); anything else is refused.
 * Secrets go to the keychain under "AdOps Desk (web preview)" (or ADOPS_KEYCHAIN_SERVICE),
 * never the app's own name, and what this run stored is removed on exit (SIGINT, SIGTERM).
 * ADOPS_RETRY_PROFILE=fast (set by the end-to-end tests) shortens the backoff between retries.
 * ADOPS_TEST_OUTAGE=1 (end-to-end tests only): SIGUSR2 stops the demo backend while the app
 * keeps its connection to it, so every call to it fails as a backend that went away does.
 */
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { isLoopbackAddress } from './guard'
import { webHostLayout } from './layout'
import { isRetryProfile, retryProfiles, startWebHost } from './server'
import type { LoadSandbox } from '../../runtime'
import type { RunningSandbox } from '../../services/connection/demo'

/** The preview's own keychain service: its secrets are never mixed with the desktop app's. */
export const PREVIEW_KEYCHAIN_SERVICE = 'AdOps Desk (web preview)'

const usage = 'usage: npm run preview:web -- [--port P] [--host 127.0.0.1] [--user-data DIR] [--renderer DIR]'

async function main(): Promise<void> {
  let values: { port?: string; host?: string; 'user-data'?: string; renderer?: string; help?: boolean }
  try {
    ;({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'user-data': { type: 'string' },
        renderer: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }))
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`)
    process.exit(2)
  }
  if (values.help) {
    console.log(usage)
    return
  }
  const port = Number(values.port ?? '5183')
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`--port must be a whole number from 0 to 65535, got "${values.port}"\n${usage}`)
    process.exit(2)
  }
  const listenOn = values.host ?? '127.0.0.1'
  if (!isLoopbackAddress(listenOn)) {
    console.error(
      `--host must be a loopback address (127.0.0.1, localhost or ::1), got "${listenOn}": the preview serves your connections and secrets to whoever can reach it.\n${usage}`,
    )
    process.exit(2)
  }
  const retryProfile = process.env.ADOPS_RETRY_PROFILE ?? 'production'
  if (!isRetryProfile(retryProfile)) {
    console.error(`ADOPS_RETRY_PROFILE must be one of ${Object.keys(retryProfiles).join(', ')}, got "${retryProfile}"`)
    process.exit(2)
  }
  const temporary = values['user-data'] === undefined
  const userDataDir = values['user-data'] ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'adops-desk-preview-')))
  const host = await startWebHost({
    port,
    host: listenOn,
    userDataDir: path.resolve(userDataDir),
    rendererDir: path.resolve(values.renderer ?? webHostLayout(import.meta.url).rendererDir),
    keychainServiceName: process.env.ADOPS_KEYCHAIN_SERVICE ?? PREVIEW_KEYCHAIN_SERVICE,
    retryProfile,
    ...(process.env.ADOPS_TEST_OUTAGE === '1' ? { loadSandbox: demoWithOutage() } : {}),
  })
  console.log(`AdOps Desk preview at ${host.url} (user data: ${userDataDir})`)

  // close() also removes from the keychain what this run stored.
  const stop = async (): Promise<void> => {
    await host.close()
    if (temporary) await fs.rm(userDataDir, { recursive: true, force: true })
    process.exit(0)
  }
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
}

/**
 * The demo backend as usual (its worker thread), plus a test-only way to take it away: on
 * SIGUSR2 its server closes and stays closed, the app is not told. What the app then sees is
 * what a user sees when the platform goes away mid-session (connection refused), so the
 * offline paths are exercised end to end, not imitated in the page.
 */
function demoWithOutage(): LoadSandbox {
  const running: RunningSandbox[] = []
  process.on('SIGUSR2', () => {
    void Promise.all(running.map((sandbox) => sandbox.close())).then(() => console.log('demo backend stopped'))
  })
  return async () => {
    const { sandboxInWorker } = await import('../../sandbox/in-worker')
    const inWorker = sandboxInWorker(webHostLayout(import.meta.url).sandboxWorker)
    return {
      async startSandbox(options) {
        const sandbox = await inWorker.startSandbox(options)
        running.push(sandbox)
        return sandbox
      },
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
})
