import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test as base, type Page } from '@playwright/test'
import { loadKeytar } from '../../main/services/secrets/keychain'

const root = path.join(import.meta.dirname, '..', '..')

export interface PreviewHost {
  url: string
  userDataDir: string
  keychainService: string
  /** Everything window.api answered during the test: the only data that crossed the bridge. */
  bridgeResponses: string[]
  /** Stops the host and starts a new one over the same user data, as an app restart would. */
  restart(): Promise<void>
  stop(): Promise<void>
}

/** Starts `preview:web` (the same command a developer runs) and resolves with its address. */
async function startPreview(userDataDir: string, keychainService: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['main/hosts/web/preview-web.ts', '--port', '0', '--user-data', userDataDir], {
    cwd: root,
    env: { ...process.env, ADOPS_KEYCHAIN_SERVICE: keychainService },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`preview:web did not start:\n${output}`)), 30_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /preview at (http:\/\/\S+\/)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('exit', (code) => reject(new Error(`preview:web exited with ${code}:\n${output}`)))
  })
  return { url, child }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

export const test = base.extend<{ host: PreviewHost }>({
  host: async ({ page }, use) => {
    const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'adops-e2e-'))
    const keychainService = `AdOps Desk e2e ${randomUUID()}`
    let running = await startPreview(userDataDir, keychainService)
    const bridgeResponses: string[] = []
    page.on('response', (response) => {
      if (!response.url().includes('/__host/invoke/')) return
      response.text().then((text) => bridgeResponses.push(text), () => undefined)
    })
    const host: PreviewHost = {
      get url() {
        return running.url
      },
      userDataDir,
      keychainService,
      bridgeResponses,
      async restart() {
        await stopChild(running.child)
        running = await startPreview(userDataDir, keychainService)
      },
      stop: () => stopChild(running.child),
    }
    await use(host)
    await stopChild(running.child)
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
