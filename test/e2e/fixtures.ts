import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test as base, type Page } from '@playwright/test'
import { loadKeytar } from '../../main/services/secrets/keychain'
import { repositoryRoot as root, spawnTsx, type SpawnedChild } from '../support/child-process'

export interface PreviewHost {
  url: string
  userDataDir: string
  keychainService: string
  /** Everything window.api answered during the test: the only data that crossed the bridge. */
  bridgeResponses: string[]
  /** Takes the embedded demo backend away while the app keeps its connection to it (resolves once it is gone). */
  stopDemoBackend(): Promise<void>
  /** Stops the host and starts a new one over the same user data, as an app restart would. */
  restart(): Promise<void>
  stop(): Promise<void>
}

/** Starts `preview:web` (the same command a developer runs) and resolves with its address. */
async function startPreview(userDataDir: string, keychainService: string): Promise<{ url: string; child: SpawnedChild }> {
  const child = spawnTsx('main/hosts/web/preview-web.ts', ['--port', '0', '--user-data', userDataDir], {
    // Short retries: the tests take backends away on purpose and need not wait out the app's backoff.
    // ADOPS_TEST_OUTAGE: SIGUSR2 takes the demo backend away (stopDemoBackend).
    env: { ADOPS_KEYCHAIN_SERVICE: keychainService, ADOPS_RETRY_PROFILE: 'fast', ADOPS_TEST_OUTAGE: '1' },
  })
  const [, url] = await child.line(/preview at (http:\/\/\S+\/)/)
  return { url: url ?? '', child }
}

export const test = base.extend<{ host: PreviewHost }>({
  host: async ({ page }, use) => {
    const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'adops-e2e-'))
    const keychainService = `AdOps Desk e2e ${randomUUID()}`
    let running = await startPreview(userDataDir, keychainService)
    const bridgeResponses: string[] = []
    page.on('response', (response) => {
      if (!response.url().includes('/__host/invoke/')) return
      response.text().then(
        (text) => bridgeResponses.push(text),
        () => undefined,
      )
    })
    const host: PreviewHost = {
      get url() {
        return running.url
      },
      userDataDir,
      keychainService,
      bridgeResponses,
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
    const keytar = await loadKeytar()
    for (const { account } of await keytar.findCredentials(keychainService)) await keytar.deletePassword(keychainService, account)
    await fs.rm(userDataDir, { recursive: true, force: true })
  },
})

export { expect } from '@playwright/test'

/** Saves a full-page screenshot for people to look at (test/artifacts/screens). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(root, 'test', 'artifacts', 'screens', `${name}.png`), fullPage: true })
}
