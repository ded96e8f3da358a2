/**
 * `npm run preview:web -- --port P [--user-data DIR] [--host H]`
 * Serves the built renderer with window.api wired to the real main-process handlers.
 * Without --user-data, a temporary folder is used and removed on exit.
 * --host is a loopback address (127.0.0.1, localhost or ::1); anything else is refused.
 * Secrets go to the keychain under "AdOps Desk (web preview)" (or ADOPS_KEYCHAIN_SERVICE),
 * never the app's own name, and what this run stored is removed on exit (SIGINT, SIGTERM).
 * ADOPS_RETRY_PROFILE=fast (set by the end-to-end tests) shortens the backoff between retries.
 * ADOPS_ENGINE_WARM_UP=off (set by the end-to-end tests) loads the analysis engine at the first
 * analysis instead of a moment after start: most tests never analyse, and each load costs ~0.45 CPU s.
 * ADOPS_TEST_OUTAGE=1 (end-to-end tests only): SIGUSR2 stops the demo backend while the app
 * keeps its connection to it, so every call to it fails as a backend that went away does.
 */
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { webHostLayout } from './layout'
import { readPreviewArguments } from './preview-arguments'
import { startWebHost } from './server'
import type { LoadSandbox } from '../../runtime'
import type { RunningSandbox } from '../../services/connection/demo'

/** The preview's own keychain service: its secrets are never mixed with the desktop app's. */
export const PREVIEW_KEYCHAIN_SERVICE = 'AdOps Desk (web preview)'

async function main(): Promise<void> {
  const read = readPreviewArguments(process.argv.slice(2), process.env)
  if (read.kind === 'usage-error') {
    console.error(read.message)
    process.exit(2)
  }
  if (read.kind === 'help') {
    console.log(read.text)
    return
  }
  const { port, retryProfile, engineWarmUp } = read.options
  const temporary = read.options.userDataDir === null
  const userDataDir = read.options.userDataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'adops-desk-preview-')))
  const host = await startWebHost({
    port,
    host: read.options.host,
    userDataDir: path.resolve(userDataDir),
    rendererDir: path.resolve(read.options.rendererDir ?? webHostLayout(import.meta.url).rendererDir),
    keychainServiceName: process.env.ADOPS_KEYCHAIN_SERVICE ?? PREVIEW_KEYCHAIN_SERVICE,
    retryProfile,
    engineWarmUp,
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
