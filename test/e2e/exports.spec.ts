import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import type { Api } from '@contract'
import { startPlatformProxy, type PlatformProxy } from '../integration/exports/platform-proxy'
import { screenshot } from './fixtures'
import { expect, openSandboxReports, test, type SandboxProcess } from './entities-fixtures'

/**
 * Exports to disk in Chromium through the web host: the Export… dialog, jobs in the drawer,
 * files in `<user data>/exports` (the web host has no save dialog). The connection's reporting
 * address is the integration tests' platform proxy in front of our own sandbox, so a test can
 * stall a download mid-stream or have the platform answer JSON instead of a file; the sandbox's
 * own faults (latency, a dropped connection) are set on it directly.
 */

async function openReports(page: Page, hostUrl: string, sandbox: SandboxProcess, reportUrl: string): Promise<void> {
  await openSandboxReports(page, hostUrl, sandbox, { name: 'Sandbox exports', reportUrl })
  await expect(page.getByTestId('resolved-range')).toBeVisible()
}

/** The sandbox's own export for a request body, asked directly (the integration tests' way). */
async function sandboxExport(sandbox: SandboxProcess, body: Record<string, unknown>): Promise<Buffer> {
  const response = await fetch(`${sandbox.info.report_url}/API/v2/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, token: sandbox.info.permanent_token }),
  })
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

/**
 * The builder's resolved dates, once it has them: the range element is shown before main answers
 * the resolution, so its attributes are waited for (web-first), never read at once.
 */
async function resolvedDates(page: Page): Promise<{ start_date: string; end_date: string }> {
  const range = page.getByTestId('resolved-range')
  const day = /^\d{4}-\d{2}-\d{2}/
  await expect(range).toHaveAttribute('data-start', day)
  await expect(range).toHaveAttribute('data-end', day)
  return { start_date: (await range.getAttribute('data-start')) ?? '', end_date: (await range.getAttribute('data-end')) ?? '' }
}

const exportsFolder = (userDataDir: string): string => path.join(userDataDir, 'exports')
const folderFiles = async (userDataDir: string): Promise<string[]> => (await fs.readdir(exportsFolder(userDataDir)).catch(() => [] as string[])).sort()

/** Opens Export… for the builder's report and waits until the dialog has its fields and an estimate. */
async function openDialog(page: Page): Promise<void> {
  await page.getByTestId('export-open').click()
  const dialog = page.getByTestId('export-dialog')
  await expect(dialog.getByTestId('export-data-fields-select')).toBeVisible()
  await expect(dialog.getByTestId('export-estimate-note')).toBeVisible({ timeout: 20_000 })
}

/** Adds a key by typing its label into the keys picker (long lists render only the options in view). */
async function addKey(page: Page, label: string): Promise<void> {
  await page.getByTestId('export-keys-select').click()
  await page.keyboard.type(label)
  await page.locator('.n-base-select-option:visible', { hasText: label }).first().click()
  await page.keyboard.press('Escape')
}

/**
 * The rail's Exports entry is drawn like the sections above it: an item of the same height and
 * indent with an icon in the same column, the running count inside the item, in its name too.
 */
async function expectRailEntryLikeSections(page: Page): Promise<void> {
  const entry = page.getByTestId('export-jobs-open')
  const section = page.getByTestId('rail').getByRole('menuitem', { name: 'Settings' })
  await expect(entry).toHaveAttribute('aria-label', 'Exports, 1 running')
  const [entryBox, sectionBox, entryIcon, sectionIcon, badge] = await Promise.all([
    entry.boundingBox(),
    section.boundingBox(),
    entry.locator('svg').first().boundingBox(),
    section.locator('svg').first().boundingBox(),
    page.getByTestId('export-jobs-badge').boundingBox(),
  ])
  if (!entryBox || !sectionBox || !entryIcon || !sectionIcon || !badge) throw new Error('the rail entry, its icon or its badge is not drawn')
  expect(entryBox).toMatchObject({ x: sectionBox.x, width: sectionBox.width, height: sectionBox.height })
  expect(entryBox.y).toBeGreaterThan(sectionBox.y)
  expect(entryIcon).toMatchObject({ x: sectionIcon.x, width: sectionIcon.width })
  expect(badge.x).toBeGreaterThan(entryIcon.x + entryIcon.width)
  expect(badge.y).toBeGreaterThanOrEqual(entryBox.y)
  expect(badge.y + badge.height).toBeLessThanOrEqual(entryBox.y + entryBox.height)
}

const job = (page: Page, id: string) => page.locator(`[data-test="export-job"][data-id="${id}"]`)

/** The jobs main lists, newest first (read through the bridge, as the panel does). */
async function listJobs(page: Page): Promise<Array<{ id: string; fileName: string }>> {
  return page.evaluate(async () => {
    const listed = await (window as unknown as { api: Api }).api.exports.list({})
    if (!listed.ok) throw new Error(listed.error.message)
    return listed.value.jobs.map((entry) => ({ id: entry.id, fileName: entry.fileName }))
  })
}

/** Starts the dialog's export; answers the new job (the web host names its file in its exports folder) and the request the app sent. */
async function start(page: Page, proxy: PlatformProxy): Promise<{ id: string; fileName: string; request: () => Record<string, unknown> }> {
  const before = proxy.exports.length
  const known = (await listJobs(page)).length
  await page.getByTestId('export-start').click()
  await expect(page.getByTestId('export-dialog')).toBeHidden()
  await expect(page.getByTestId('export-jobs-panel')).toBeVisible()
  await expect.poll(async () => (await listJobs(page)).length).toBe(known + 1)
  const [newest] = await listJobs(page)
  if (!newest) throw new Error('no job was started')
  const request = (): Record<string, unknown> => {
    const sent = proxy.exports[before]
    if (!sent) throw new Error('the app sent no export request')
    return sent
  }
  return { ...newest, request }
}

type Seen = { exportStates?: Record<string, string[]> }

/**
 * Records, in the page, every state each job's line shows (with `+bar` when its progress bar is
 * there), so a job that runs and ends between two looks of the test is still seen running.
 */
async function recordStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {}
    ;(window as unknown as Seen).exportStates = seen
    new MutationObserver(() => {
      for (const line of document.querySelectorAll('[data-test="export-job"]')) {
        const id = line.getAttribute('data-id') ?? ''
        const shown = `${line.getAttribute('data-state') ?? ''}${line.querySelector('[data-test="export-progress"]') ? '+bar' : ''}`
        const states = (seen[id] ??= [])
        if (states.at(-1) !== shown) states.push(shown)
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'data-bytes'] })
  })
}
const statesOf = (page: Page, id: string): Promise<string[]> => page.evaluate((jobId) => (window as unknown as Seen).exportStates?.[jobId] ?? [], id)

async function closePanel(page: Page): Promise<void> {
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('export-jobs-panel')).toBeHidden()
}

let proxy: PlatformProxy

test.afterEach(async () => {
  await proxy?.close()
})

test('a report exported in each format: progress in the panel, the same bytes as the sandbox, a csv previewed', async ({ page, host, sandbox }) => {
  test.setTimeout(180_000)
  proxy = await startPlatformProxy(sandbox.info.report_url)
  await openReports(page, host.url, sandbox, proxy.reportUrl)
  const dates = await resolvedDates(page)

  // csv, split by day and page: several keys, so the estimate is a lower bound.
  await openDialog(page)
  const dialog = page.getByTestId('export-dialog')
  await expect(dialog.getByTestId('export-rule').first()).toContainText('1,000,000 rows')
  await expect(dialog.getByTestId('export-destination')).toContainText('exports folder')
  // No breakdown: the keys field shows the key main's estimate says it splits by (the auto granularity's).
  await expect(dialog.getByTestId('export-keys-select')).toHaveAttribute('data-resolving', 'false')
  await expect(dialog.getByTestId('export-keys-select')).toContainText('granularity_')
  await addKey(page, 'Page URL')
  await expect(dialog.getByTestId('export-estimate')).toHaveAttribute('data-at-least', 'true')
  await expect(dialog.getByTestId('export-estimate-note')).toContainText('combinations with the other keys')
  await screenshot(page, 'exports-dialog')
  // The API's names, so the file is the sandbox's own bytes (the screens' names: integration/exports/export-columns.test.ts).
  await dialog.getByTestId('export-api-column-names').click()
  // Slow answers, so the job runs long enough to be drawn running, with its bar, before it ends.
  await sandbox.setFaults({ latency_ms: 1_500 })
  await recordStates(page)
  const csv = await start(page, proxy)
  const running = job(page, csv.id)
  await expect(running).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await sandbox.setFaults({ latency_ms: 0 })
  expect(await statesOf(page, csv.id)).toContain('running+bar')
  expect((await statesOf(page, csv.id)).at(-1)).toBe('done+bar')
  await expect(running.getByTestId('export-job-figures')).toContainText('rows')
  expect(csv.request()).toMatchObject({ ...dates, split_by: [expect.stringMatching(/^granularity_/), 'page_url'], export_format: 'csv', include_mappings: 1 })
  const csvBytes = await fs.readFile(path.join(exportsFolder(host.userDataDir), csv.fileName))
  expect(csvBytes.equals(await sandboxExport(sandbox, csv.request()))).toBe(true)
  expect(Number(await running.getAttribute('data-bytes'))).toBe(csvBytes.length)

  // The preview: main's first 1,000 rows in a virtual table.
  await running.getByTestId('export-job-preview').click()
  const preview = page.getByTestId('export-preview')
  await expect(preview.getByTestId('export-preview-table')).toBeVisible()
  const lines = csvBytes.toString('utf8').trimEnd().split('\r\n')
  await expect(preview.getByTestId('export-preview-summary')).toHaveAttribute('data-rows', String(Math.min(1_000, lines.length - 1)))
  await expect(preview.locator('th').first()).toContainText(lines[0]?.split(',')[0] ?? '')
  await expect(preview.locator('tbody tr').first().locator('td').first()).toHaveText(lines[1]?.split(',')[0] ?? '')
  // Virtual: far fewer rows in the page than in the preview.
  expect(await preview.locator('tbody tr').count()).toBeLessThan(100)
  await screenshot(page, 'exports-preview')
  await page.keyboard.press('Escape')
  await expect(preview).toBeHidden()
  await closePanel(page)

  // tsv with the default key, and xlsx with a Total row.
  for (const format of ['tsv', 'xlsx'] as const) {
    await openDialog(page)
    await dialog.getByTestId(`export-format-${format}`).click()
    await dialog.getByTestId('export-api-column-names').click()
    if (format === 'xlsx') {
      await dialog.getByTestId('export-include-total').click()
      await expect(dialog.getByTestId('export-rule').first()).toContainText('1,048,570 rows')
    }
    const started = await start(page, proxy)
    const line = job(page, started.id)
    await expect(line).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
    expect(started.request()).toMatchObject({ ...dates, export_format: format, include_total: format === 'xlsx' ? 1 : 0 })
    const written = await fs.readFile(path.join(exportsFolder(host.userDataDir), started.fileName))
    // An xlsx file's dates are date cells, so only the text formats are the sandbox's bytes.
    if (format === 'tsv') expect(written.equals(await sandboxExport(sandbox, started.request()))).toBe(true)
    else expect(strFromU8(unzipSync(written)['xl/styles.xml'] ?? new Uint8Array())).toContain('formatCode="yyyy-mm-dd')
    if (format === 'xlsx') await expect(line.getByTestId('export-job-preview')).toHaveCount(0)
    await closePanel(page)
  }
  // Nothing half-written was left beside the files.
  expect((await folderFiles(host.userDataDir)).filter((name) => name.endsWith('.tmp'))).toEqual([])
})

/** A preset saved from the builder's report, its menu's Export… opened: the dialog names it. */
async function exportPreset(page: Page, name: string): Promise<void> {
  await page.getByTestId('preset-save-as').click()
  await page.getByTestId('name-input').locator('input').fill(name)
  await page.getByTestId('name-confirm').click()
  await page.locator(`[data-test="preset-item"][data-name="${name}"]`).getByTestId('preset-actions').click()
  // The menu that just closed can still be fading out: always take the newest one.
  await page
    .locator('.n-dropdown-option', { hasText: /^Export…$/ })
    .last()
    .click()
  await expect(page.getByTestId('export-dialog')).toContainText(`Export “${name}”`)
  await expect(page.getByTestId('export-estimate-note')).toBeVisible({ timeout: 20_000 })
}

/**
 * Starts an export the platform begins to send and then stalls (the proxy holds the rest), and
 * waits until its first bytes are shown. The latency makes them arrive after the job's first event.
 */
async function startStalled(page: Page, sandbox: SandboxProcess): Promise<{ id: string; fileName: string }> {
  proxy.mode = { kind: 'stall' }
  await sandbox.setFaults({ latency_ms: 600 })
  await openDialog(page)
  await addKey(page, 'Page URL')
  const stalled = await start(page, proxy)
  await expect.poll(async () => Number(await job(page, stalled.id).getAttribute('data-bytes')), { timeout: 20_000 }).toBeGreaterThan(0)
  return stalled
}

// The failure paths are tests of their own: one that breaks does not hide the others. Each
// starts a host, a sandbox and a proxy and runs one to three exports: more than the default
// minute on a busy machine.
test('an export from a preset menu is named after the preset and remembers it', async ({ page, host, sandbox }) => {
  test.setTimeout(120_000)
  proxy = await startPlatformProxy(sandbox.info.report_url)
  await openReports(page, host.url, sandbox, proxy.reportUrl)
  await exportPreset(page, 'Weekly export')
  const fromPreset = await start(page, proxy)
  expect(fromPreset.fileName).toBe('Weekly export.csv')
  await expect(job(page, fromPreset.id)).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await expect(job(page, fromPreset.id)).toContainText('Preset “Weekly export”')
  expect(await folderFiles(host.userDataDir)).toEqual(['Weekly export.csv'])
})

test('cancel mid-stream: the job shows it running in the rail and the panel, then cancelled, and no file is left', async ({ page, host, sandbox }) => {
  test.setTimeout(120_000)
  proxy = await startPlatformProxy(sandbox.info.report_url)
  await openReports(page, host.url, sandbox, proxy.reportUrl)
  const stalled = await startStalled(page, sandbox)
  const line = job(page, stalled.id)
  await expect(line).toHaveAttribute('data-state', 'running')
  expect((await folderFiles(host.userDataDir)).some((name) => name.endsWith('.tmp'))).toBe(true)
  await expect(page.getByTestId('export-jobs-badge')).toContainText('1')
  await expectRailEntryLikeSections(page)
  await expect(line.getByTestId('export-job-figures')).toContainText('/s')
  await screenshot(page, 'exports-panel-running')
  await line.getByTestId('export-job-cancel').click()
  await expect(line).toHaveAttribute('data-state', 'cancelled')
  await expect.poll(() => folderFiles(host.userDataDir)).toEqual([])
})

test('a JSON answer instead of a file and a connection dropped half-way: sentences, and no file', async ({ page, host, sandbox }) => {
  test.setTimeout(120_000)
  proxy = await startPlatformProxy(sandbox.info.report_url)
  await openReports(page, host.url, sandbox, proxy.reportUrl)

  // A JSON error instead of a file: the platform's reason, and no file.
  proxy.mode = { kind: 'json', body: { status: 'bad_request', reason: 'Invalid parameter split_by: the export would have 2000000 rows' } }
  await openDialog(page)
  const refused = await start(page, proxy)
  const refusedLine = job(page, refused.id)
  await expect(refusedLine).toHaveAttribute('data-state', 'failed')
  await expect(refusedLine.getByTestId('export-job-error')).toContainText('Invalid parameter split_by')
  expect(await folderFiles(host.userDataDir)).toEqual([])
  await closePanel(page)

  // The connection drops half-way: a sentence that says so, and no file.
  proxy.mode = { kind: 'pass' }
  await sandbox.setFaults({ drop_export_after_bytes: 2_000 })
  await openDialog(page)
  await addKey(page, 'Page URL')
  const dropped = await start(page, proxy)
  const droppedLine = job(page, dropped.id)
  await expect(droppedLine).toHaveAttribute('data-state', 'failed', { timeout: 30_000 })
  await expect(droppedLine.getByTestId('export-job-error')).toContainText('connection to the platform dropped')
  expect(await folderFiles(host.userDataDir)).toEqual([])
  await screenshot(page, 'exports-panel-failures')
})

test('a job still streaming when the app stops is kept as interrupted, its temporary file removed; the history survives a restart', async ({
  page,
  host,
  sandbox,
}) => {
  test.setTimeout(120_000)
  proxy = await startPlatformProxy(sandbox.info.report_url)
  await openReports(page, host.url, sandbox, proxy.reportUrl)
  await exportPreset(page, 'Weekly export')
  const done = await start(page, proxy)
  await expect(job(page, done.id)).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await closePanel(page)
  const cut = await startStalled(page, sandbox)
  await sandbox.setFaults({ latency_ms: 0 })

  // The history is main's, on disk: a restart shows every job with how it ended.
  await host.restart()
  await page.goto(host.url)
  await page.getByTestId('export-jobs-open').click()
  const history = page.getByTestId('export-jobs-history')
  await expect(history.getByTestId('export-job')).toHaveCount(2)
  const states = await history.getByTestId('export-job').evaluateAll((lines) => lines.map((line) => line.getAttribute('data-state')))
  expect(states).toEqual(['interrupted', 'done'])
  await expect(job(page, cut.id).getByTestId('export-job-error')).toContainText('quit while this export was running')
  expect(await folderFiles(host.userDataDir)).toEqual(['Weekly export.csv'])
  await screenshot(page, 'exports-history')
})
