import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, selectors, type Browser, type Page } from '@playwright/test'
import type { Api } from '@contract'

/**
 * What the report and preset benches share: the demo backend and preview:web started from
 * source as child processes, headless Chromium, and a page on the Reports screen with a saved
 * connection to the demo (project `demo`, report `supply`) made active. The big results are
 * not the demo's: each bench answers the bridge call it measures with page.route.
 */

export const root = path.join(import.meta.dirname, '..', '..')

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

export function startChild(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start:\n${output}`)), 60_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const match = ready.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({ child, match })
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}:\n${output}`)))
  })
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

export interface BrowserHost {
  browser: Browser
  url: string
  /** preview:web's data folder, for a bench that puts files where main keeps them (a kept result). */
  userDataDir: string
  sandboxInfo: Record<string, string>
  close(): Promise<void>
}

export async function startBrowserHost(name: string): Promise<BrowserHost> {
  if (!existsSync(path.join(root, 'out', 'renderer', 'index.html'))) throw new Error('build the app first: npm run build')
  selectors.setTestIdAttribute('data-test')
  const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), `adops-bench-${name}-`))
  const env = { ...process.env, ADOPS_KEYCHAIN_SERVICE: `AdOps Desk bench ${randomUUID()}` }
  const children: ChildProcess[] = []
  const browser = await chromium.launch({
    ...(existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  const close = async () => {
    await browser.close()
    for (const child of children) await stop(child)
    await fs.rm(userDataDir, { recursive: true, force: true })
  }
  try {
    const sandbox = await startChild(['main/sandbox/cli.ts', '--port', '0'], env, /^(\{.*\})$/m)
    children.push(sandbox.child)
    const host = await startChild(['main/hosts/web/preview-web.ts', '--port', '0', '--user-data', userDataDir], env, /preview at (http:\/\/\S+\/)/)
    children.push(host.child)
    return { browser, url: host.match[1] as string, userDataDir, sandboxInfo: JSON.parse(sandbox.match[1] as string) as Record<string, string>, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** Saves a connection to the demo with its report as the default (secret for this session only), makes it active, opens Reports. */
export async function openReports(page: Page, host: BrowserHost): Promise<void> {
  await page.goto(host.url)
  await page.evaluate(async (info) => {
    const api = (globalThis as unknown as { api: Api }).api
    const created = await api.profiles.create({
      name: 'Bench reports',
      baseUrl: info.base_url ?? '',
      authUrl: info.auth_url ?? '',
      reportUrl: info.report_url ?? '',
      serviceId: info.service_id ?? '',
      defaultProject: 'demo',
      defaultSlicer: 'supply',
      auth: { method: 'password', username: info.username ?? '', password: info.password ?? '' },
      sessionOnlySecret: true,
    })
    if (!created.ok) throw new Error(created.error.message)
    const activated = await api.workspace.activate({ profileId: created.value.id })
    if (!activated.ok) throw new Error(activated.error.message)
  }, host.sandboxInfo)
  await page.reload()
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await page.getByTestId('builder').waitFor()
  await page.getByTestId('info-as-of').waitFor()
  // The Run button follows the report's description by a render: a bench clicking it at once found none.
  await page.getByTestId('run').waitFor()
}

/** Reloads the page and goes back to Reports with the same connection: a fresh renderer, no chart yet. */
export async function reopenReports(page: Page): Promise<void> {
  await page.reload()
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await page.getByTestId('builder').waitFor()
  await page.getByTestId('info-as-of').waitFor()
  await page.getByTestId('run').waitFor()
  await page.getByTestId('chart-empty').waitFor()
}

/** A chart result of `lines` series × `points` values, as main would send it unreduced (timeSeriesResultSchema). */
export function bigResult(lines: number, points: number, metric: string): Record<string, unknown> {
  const start = Date.UTC(2025, 0, 1)
  const categories = Array.from({ length: points }, (_, index) => new Date(start + index * 3_600_000).toISOString().slice(0, 19).replace('T', ' '))
  const series = Array.from({ length: lines }, (_, line) => {
    const values = Array.from({ length: points }, (_, index) =>
      Math.round(1_000 + line * 40 + 300 * Math.sin(index / 50 + line) + ((index * 7919 + line * 104_729) % 97)),
    )
    const total = values.reduce((sum, value) => sum + value, 0)
    return {
      key: `${metric}|line ${line}`,
      metric,
      line: `line ${line}`,
      label: `Line ${line}`,
      role: 'line',
      values,
      stats: { total, average: total / points, min: Math.min(...values), max: Math.max(...values), change: null, points },
    }
  })
  const range = { start: categories[0], end: categories.at(-1), timezone: 0, days: Math.ceil(points / 24) }
  return {
    ranAt: new Date().toISOString(),
    durationMs: 1,
    range,
    comparisonRange: null,
    granularity: 'granularity_hour',
    categories,
    comparisonCategories: [],
    series,
    markers: [],
    sourcePoints: points,
    reduced: false,
    notes: [],
  }
}
