import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test as base, type Page } from '@playwright/test'
import { repositoryRoot as root, spawnChild, type SpawnedChild } from '../support/child-process'
import { storedCredentials } from '../support/keychain'
import { assertLogHasNoSecrets, readLogs } from '../support/log-scan'

export interface PreviewHost {
  url: string
  userDataDir: string
  keychainService: string
  /**
   * Secrets the test used that the app does not keep in the keychain (session-only sign-ins):
   * the log scan at the end of the test looks for them too.
   */
  noteSecrets(...secrets: string[]): void
  /** Takes the embedded demo backend away while the app keeps its connection to it (resolves once it is gone). */
  stopDemoBackend(): Promise<void>
  /** Stops the host and starts a new one over the same user data, as an app restart would. */
  restart(): Promise<void>
  stop(): Promise<void>
}

/**
 * Starts the built web host (what `npm run preview:web` runs; `npm test` builds it before the
 * end-to-end tests) and resolves with its address.
 */
async function startPreview(userDataDir: string, keychainService: string): Promise<{ url: string; child: SpawnedChild }> {
  const child = spawnChild(process.execPath, [path.join(root, 'out', 'web', 'preview-web.js'), '--port', '0', '--user-data', userDataDir], {
    // Short retries: the tests take backends away on purpose and need not wait out the app's backoff.
    // ADOPS_TEST_OUTAGE: SIGUSR2 takes the demo backend away (stopDemoBackend).
    // ADOPS_ENGINE_WARM_UP=off: DuckDB loads at a test's first analysis, not in every host (0.45 CPU s
    // each, ~55 hosts a run); the warm-up itself is tested in test/integration/build/web-host-start.test.ts.
    env: { ADOPS_KEYCHAIN_SERVICE: keychainService, ADOPS_RETRY_PROFILE: 'fast', ADOPS_TEST_OUTAGE: '1', ADOPS_ENGINE_WARM_UP: 'off' },
  })
  const [, url] = await child.line(/preview at (http:\/\/\S+\/)/)
  return { url: url ?? '', child }
}

export const test = base.extend<{ host: PreviewHost; bridgeResponses: string[] }>({
  /**
   * Everything window.api answered during the test: the only data that crossed the bridge.
   * Collected only for a test that asks for it (each body is fetched from the browser over the
   * DevTools protocol, which every other test would pay for without reading it).
   */
  bridgeResponses: async ({ page }, use) => {
    const bridgeResponses: string[] = []
    page.on('response', (response) => {
      if (!response.url().includes('/__host/invoke/')) return
      response.text().then(
        (text) => bridgeResponses.push(text),
        () => undefined,
      )
    })
    await use(bridgeResponses)
  },
  // After the page and torn down before it, as always: the page sees its host go, never the reverse.
  host: async ({ page: _page }, use) => {
    const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'adops-e2e-'))
    const keychainService = `AdOps Desk e2e ${randomUUID()}`
    // The most verbose log level, as a user chasing a problem would set it: the scan below then
    // reads everything the app would ever write.
    await fs.writeFile(path.join(userDataDir, 'settings.json'), JSON.stringify({ version: 1, activeProfileId: null, logLevel: 'debug' }))
    const noted = new Set<string>()
    let running = await startPreview(userDataDir, keychainService)
    const host: PreviewHost = {
      get url() {
        return running.url
      },
      userDataDir,
      keychainService,
      noteSecrets(...secrets) {
        for (const secret of secrets) if (secret) noted.add(secret)
      },
      async stopDemoBackend() {
        const stopped = running.child.line(/^demo backend stopped$/)
        running.child.child.kill('SIGUSR2')
        await stopped
      },
      async restart() {
        await running.child.stop()
        running = await startPreview(userDataDir, keychainService)
      },
      async stop() {
        await running.child.stop()
      },
    }
    await use(host)
    await running.child.stop()
    // The host has exited: nothing writes this service now, so the read runs in this worker.
    const stored = await storedCredentials(keychainService, { clear: true, afterWritersStopped: true })
    try {
      // Every e2e test ends with its log scanned: after real sign-ins, at the debug level, no
      // secret the app was given (kept in the keychain or noted) may be in any log file.
      assertLogHasNoSecrets(await readLogs(userDataDir), [...stored.map((entry) => entry.password), ...noted])
    } finally {
      await fs.rm(userDataDir, { recursive: true, force: true })
    }
  },
})

export { expect } from '@playwright/test'
export { storedCredentials } from '../support/keychain'

/** Saves a full-page screenshot for people to look at (test/artifacts/screens). */
export async function screenshot(page: Page, name: string): Promise<void> {
  // Transitions finished first: a screen just switched to dark kept its rail icons half-faded.
  await page.screenshot({ path: path.join(root, 'test', 'artifacts', 'screens', `${name}.png`), fullPage: true, animations: 'disabled' })
}
