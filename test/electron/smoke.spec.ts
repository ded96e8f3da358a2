import { spawn } from 'node:child_process'
import { existsSync, promises as fs, realpathSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { _electron, expect, test, type ElectronApplication } from '@playwright/test'
import { findElectronBinary } from './electron-binary.mjs'

/**
 * The built app in real Electron, the way a user meets it: it starts on a fresh profile, opens
 * the demo workspace, runs a report, exports a file and saves the chart as an image through
 * the native save dialog, opens a preset from an `adopsdesk://` link given to a second launch,
 * and quits with exit code 0. Run by `npm run test:electron` (test/electron/run.mjs), which
 * says SKIPPED where Electron's binary is not installed; CI runs it on Linux, macOS and Windows.
 *
 * The native save dialog cannot be clicked by a test, so it is replaced in the main process
 * (Playwright evaluates there) by one that answers a file in this test's own folder: nothing
 * is written outside the temporary folders, and main still writes only where "the dialog" said.
 */

const root = path.resolve(import.meta.dirname, '..', '..')
// Launched as `electron .` is (npm start): package.json names out/main/index.js as main and
// gives the app its name and version, so paths and the single-instance lock are the app's own.
const mainEntry = path.join(root, 'out', 'main', 'index.js')
const binary = findElectronBinary(path.join(root, 'node_modules'))
// Run directly (not through run.mjs) without the binary, the spec is skipped with the reason;
// run.mjs sets ADOPS_REQUIRE_ELECTRON=1, and CI too, so there a missing binary fails instead.
test.skip(!binary.found && process.env.ADOPS_REQUIRE_ELECTRON !== '1', binary.found ? '' : binary.reason)

/** Chromium's own switch, which Electron turns into app.getPath('userData') (an absolute path only). */
const userDataSwitch = (folder: string): string => `--user-data-dir=${folder}`
/** Ubuntu 24.04 forbids the unprivileged namespaces Chromium's sandbox needs unless chrome-sandbox is setuid. */
const sandboxSwitches = process.platform === 'linux' ? ['--no-sandbox'] : []

function environment(): Record<string, string> {
  const variables: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) variables[name] = value
  // Neither Node mode nor the vite dev server: the built app, as `electron .` runs it.
  delete variables.ELECTRON_RUN_AS_NODE
  delete variables.ELECTRON_RENDERER_URL
  return variables
}

/** Replaces the native save dialog in main: each call answers `<folder>/<the name main proposed>`. */
async function answerSaveDialogs(app: ElectronApplication, folder: string): Promise<void> {
  await app.evaluate(
    ({ dialog }, target) => {
      const answer = async (...args: unknown[]): Promise<{ canceled: boolean; filePath: string }> => {
        const options = args.find((value): value is { defaultPath?: string } => typeof value === 'object' && value !== null && 'defaultPath' in value)
        const name = (options?.defaultPath ?? 'saved-file').split(/[\\/]/).pop() ?? 'saved-file'
        return { canceled: false, filePath: `${target.folder}${target.separator}${name}` }
      }
      dialog.showSaveDialog = answer as typeof dialog.showSaveDialog
    },
    { folder: realpathSync(folder), separator: path.sep },
  )
}

/** Starts a second instance with a preset link, as the OS does on Windows and Linux; it hands the link over and exits. */
async function launchWithLink(executable: string, userDataDir: string, link: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(executable, [...sandboxSwitches, root, userDataSwitch(userDataDir), link], { cwd: root, env: environment() })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (exitCode) => resolve(exitCode))
  })
  return { code, output }
}

test('the built app in Electron: demo workspace, a report, a file and a chart image saved, a preset link, a clean quit', async () => {
  if (!binary.found) throw new Error(`Electron is required here and ${binary.reason}`)
  expect(existsSync(mainEntry), 'the app is built (npm run build)').toBe(true)
  const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'adops-electron-profile-'))
  const savedDir = await fs.mkdtemp(path.join(os.tmpdir(), 'adops-electron-saved-'))
  // Log lines from now on: on macOS the log folder is ~/Library/Logs/AdOps Desk, whatever the profile.
  const startedAt = new Date().toISOString()
  const app = await _electron.launch({
    executablePath: binary.executable,
    args: [...sandboxSwitches, root, userDataSwitch(userDataDir)],
    cwd: root,
    env: environment(),
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    app.process().once('exit', (code, signal) => resolve({ code, signal })),
  )
  let quit = false
  try {
    // The fresh profile is the one in use: nothing of a real one is read or written.
    const paths = await app.evaluate(({ app: electronApp }) => ({ userData: electronApp.getPath('userData'), logs: electronApp.getPath('logs') }))
    expect(realpathSync(paths.userData)).toBe(realpathSync(userDataDir))
    await answerSaveDialogs(app, savedDir)

    const page = await app.firstWindow()
    const crashes: string[] = []
    page.on('crash', () => crashes.push('the page crashed'))

    // The demo workspace.
    await expect(page.getByTestId('welcome')).toBeVisible()
    await page.getByTestId('open-demo').click()
    await expect(page.getByTestId('welcome')).toHaveCount(0)
    await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')

    // A report.
    await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
    await expect(page.getByTestId('builder')).toBeVisible()
    await expect(page.getByTestId('run')).toBeEnabled()
    await page.getByTestId('run').click()
    await expect(page.getByTestId('series-row').first()).toBeVisible()
    await expect(page.getByTestId('report-chart')).toHaveAttribute('data-painted', 'true')

    // The chart as an image, through the (answered) save dialog.
    await page.getByTestId('save-chart').click()
    await page.getByTestId('save-chart-png').click()
    await expect(page.locator('.n-message').last()).toContainText(/Saved .+\.png/)
    const images = (await fs.readdir(savedDir)).filter((name) => name.endsWith('.png'))
    expect(images).toHaveLength(1)
    const png = await fs.readFile(path.join(savedDir, images[0] ?? ''))
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true)

    // An export to a file: a job that ends done, its file where the dialog said.
    await page.getByTestId('export-open').click()
    const dialog = page.getByTestId('export-dialog')
    await expect(dialog.getByTestId('export-estimate-note')).toBeVisible()
    // The desktop asks where to save (the web host has no save dialog and uses a fixed folder).
    await expect(dialog.getByTestId('export-destination')).toContainText('Start asks where to save the file.')
    await dialog.getByTestId('export-start').click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('export-jobs-panel')).toBeVisible()
    await expect(page.getByTestId('export-job').first()).toHaveAttribute('data-state', 'done')
    const files = (await fs.readdir(savedDir)).filter((name) => !name.endsWith('.png'))
    expect(files).toHaveLength(1)
    expect((await fs.stat(path.join(savedDir, files[0] ?? ''))).size).toBeGreaterThan(0)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('export-jobs-panel')).toBeHidden()

    // Two presets; a link for the first, given to a second launch, opens it in this window.
    for (const name of ['Smoke linked', 'Smoke other']) {
      await page.getByTestId('preset-save-as').click()
      await page.getByTestId('name-input').locator('input').fill(name)
      await page.getByTestId('name-confirm').click()
      await expect(page.getByTestId('preset-current')).toContainText(name)
    }
    await page.getByTestId('rail').getByText('Entities', { exact: true }).click()
    await expect(page.getByTestId('builder')).toBeHidden()
    const second = await launchWithLink(binary.executable, userDataDir, `adopsdesk://preset/${encodeURIComponent('Smoke linked')}`)
    expect(second.code, `the second launch hands its link over and exits 0:\n${second.output}`).toBe(0)
    await expect(page.getByTestId('builder')).toBeVisible()
    await expect(page.getByTestId('preset-current')).toContainText('Smoke linked')
    // The builder took the preset: it runs again as the preset says.
    await expect(page.getByTestId('preset-edited')).toHaveCount(0)

    // Quit the way a user does (the last window closes) and check how the process ended.
    // Deferred, so this call has its answer before the process goes.
    await app.evaluate(({ BrowserWindow }) => {
      setImmediate(() => BrowserWindow.getAllWindows()[0]?.close())
    })
    const ending = await exited
    quit = true
    expect(crashes).toEqual([])
    expect(ending).toEqual({ code: 0, signal: null })
    const log = await fs.readFile(path.join(paths.logs, 'main.log'), 'utf8')
    const ours = log.split('\n').filter((line) => line.slice(0, startedAt.length) >= startedAt)
    expect(ours.some((line) => line.includes(' INFO '))).toBe(true)
    expect(ours.filter((line) => line.includes(' ERROR '))).toEqual([])
  } finally {
    if (!quit) await app.close().catch(() => undefined)
    await fs.rm(userDataDir, { recursive: true, force: true })
    await fs.rm(savedDir, { recursive: true, force: true })
  }
})
