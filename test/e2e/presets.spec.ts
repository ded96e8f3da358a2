import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Page, Route } from '@playwright/test'
import { openSandboxReports, test as withSandbox } from './entities-fixtures'
import { expect, screenshot, test } from './fixtures'

/**
 * Presets on the built-in demo through the web host: save a report, find it again after a
 * reload with its kept chart shown before the new run answers, paste a request, copy one out.
 */

async function openDemoReports(page: Page): Promise<void> {
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await expect(page.getByTestId('builder')).toBeVisible()
}

test('a saved preset reopens after a reload with its kept chart, and requests travel in and out', async ({ page, host, context }) => {
  test.setTimeout(120_000)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await openDemoReports(page)

  await page.getByTestId('run').click()
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('preset-current')).toContainText('Unsaved report')

  await page.getByTestId('preset-save-as').click()
  await page.getByTestId('name-input').locator('input').fill('Supply check')
  await page.getByTestId('name-confirm').click()
  await expect(page.getByTestId('preset-current')).toContainText('Supply check')
  await expect(page.locator('[data-test="preset-item"][data-name="Supply check"]')).toBeVisible()
  await expect(page.getByTestId('preset-edited')).toHaveCount(0)

  // Leaving the saved definition marks it; Ctrl+S saves over it and the mark goes.
  await page.getByTestId('chart-type-bar').click()
  await expect(page.getByTestId('preset-edited')).toBeVisible()
  await screenshot(page, 'presets-edited')
  await page.keyboard.press('Control+s')
  await expect(page.getByTestId('preset-edited')).toHaveCount(0)

  // Duplicate, then delete the copy and take it back with Undo.
  const item = (name: string) => page.locator(`[data-test="preset-item"][data-name="${name}"]`)
  await item('Supply check').getByTestId('preset-actions').click()
  // The menu that just closed can still be fading out: always take the newest one.
  await page.locator('.n-dropdown-option', { hasText: 'Duplicate' }).last().click()
  await expect(item('Supply check copy')).toBeVisible()
  // The copy is deleted by keyboard alone: the row's ⋯ opens a menu that takes the focus, Escape
  // gives it back to the ⋯, and the arrows reach Delete.
  const more = item('Supply check copy').getByTestId('preset-actions')
  // The pointer out of the way: the menu opens where the last one was clicked, and Naive lets the item under the pointer win over the arrows.
  await page.mouse.move(0, 0)
  await more.focus()
  await page.keyboard.press('Enter')
  const actionsMenu = page.getByRole('menu', { name: 'Preset actions' })
  await expect(actionsMenu).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(more).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(actionsMenu).toBeFocused()
  for (let step = 0; step < 5; step++) await page.keyboard.press('ArrowDown')
  await expect(actionsMenu).toHaveAttribute('aria-activedescendant', (await actionsMenu.getByRole('menuitem', { name: 'Delete' }).getAttribute('id')) ?? '')
  await page.keyboard.press('Enter')
  await expect(item('Supply check copy')).toHaveCount(0)
  await page.getByTestId('undo-delete').click()
  await expect(item('Supply check copy')).toBeVisible()
  await page.getByTestId('presets-search').locator('input').fill('copy')
  await expect(page.getByTestId('preset-item')).toHaveCount(1)
  await page.getByTestId('presets-search').locator('input').fill('')

  // After a reload, the kept chart is on screen while the new run is still held back.
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  const holdRun = async (route: Route): Promise<void> => {
    await held
    await route.continue()
  }
  await page.route((url) => url.pathname.endsWith('/__host/invoke/reports%3Arun'), holdRun)
  await page.reload()
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await page.locator('[data-test="preset-item"][data-name="Supply check"] button').first().click()
  await expect(page.getByTestId('result-as-of')).toContainText('Result as of')
  await expect(page.getByTestId('series-row').first()).toBeVisible()
  await expect(page.getByTestId('run')).toBeDisabled()
  await screenshot(page, 'presets-cached')
  release()
  await expect(page.getByTestId('result-as-of')).toHaveCount(0, { timeout: 30_000 })
  await page.unroute((url) => url.pathname.endsWith('/__host/invoke/reports%3Arun'), holdRun)

  // The history lists the preset's runs; filtered to failures, none are left.
  await page.getByTestId('history-show').click()
  const entries = page.getByTestId('history-entry')
  await expect(entries.filter({ hasText: 'Supply check' }).first()).toBeVisible()
  await page.getByTestId('history-outcome').click()
  await page.locator('.n-base-select-option:visible', { hasText: 'Failed' }).click()
  await expect(page.getByTestId('history-empty')).toBeVisible()
  await screenshot(page, 'presets-history')
  await page.getByTestId('history-outcome').click()
  await page.locator('.n-base-select-option:visible', { hasText: 'Succeeded' }).click()
  await entries.first().getByTestId('history-open').click()
  await expect(page.getByTestId('history-panel')).toHaveCount(0)
  await expect(page.getByTestId('result-as-of')).toContainText('Result as of')

  // A pasted platform request replaces the builder; it is no longer the preset.
  await page.getByTestId('paste-request').click()
  const request = { project_name: 'demo', slicer_name: 'supply', data_field: 'requests', granularity: 'granularity_day', start_date: '-7d', end_date: 'today' }
  await page
    .getByTestId('paste-text')
    .locator('textarea')
    .fill(JSON.stringify(request, null, 2))
  await page.getByTestId('paste-apply').click()
  await expect(page.getByTestId('preset-current')).toContainText('Unsaved report')
  await screenshot(page, 'presets-pasted')
  if (await page.getByTestId('paste-dialog').isVisible()) await page.keyboard.press('Escape')

  await page.getByTestId('copy-request').click()
  await page.locator('.n-dropdown-option', { hasText: 'Copy JSON body' }).last().click()
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('<ACCESS_TOKEN>')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain('"requests"')
  await screenshot(page, 'presets-copied')
})

/** A preset file as a colleague's older AdOps Desk wrote it (format 0), and a file that is no preset. */
const colleaguePreset = {
  version: 0,
  name: 'Device mix (from Anna)',
  savedAt: '2026-01-05T09:00:00.000Z',
  definition: {
    project: 'demo',
    report: 'supply',
    dates: { from: '-14d', to: 'yesterday' },
    timezone: null,
    metric: 'impressions',
    granularity: 'granularity_day',
    breakdown: ['device_type'],
    lines: { top: 5, total: true },
    filters: [],
    chart: 'area',
  },
}

/** A link copied from the platform's web reporting UI: a drill into Germany, then into a week the builder cannot read. */
const webLink =
  'https://reports.example.com/demo/UI/Reports/supply?category=device_type&chart_column=impressions&start_date=-14d&end_date=yesterday&granularity=granularity_day' +
  '&parent_key=country&parent_match=equals&parent_value=DE&parent_key=granularity_week&parent_match=equals&parent_value=2026-W02&normalization=value'

test('files, links and an outage: import a preset file, paste a web-UI link, open a preset with the demo backend gone', async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await openDemoReports(page)
  const item = (name: string) => page.locator(`[data-test="preset-item"][data-name="${name}"]`)

  // Import: the web host's "open" dialog is the imports folder in its data folder.
  const imports = path.join(host.userDataDir, 'imports')
  await fs.mkdir(imports, { recursive: true })
  await fs.writeFile(path.join(imports, 'device-mix.json'), JSON.stringify(colleaguePreset, null, 2))
  await fs.writeFile(path.join(imports, 'notes.json'), '{ "todo": "ask Anna about Monday" }')
  await page.getByTestId('presets-import').click()
  await expect(item('Device mix (from Anna)')).toBeVisible()
  await expect(page.locator('.n-message', { hasText: 'Imported Device mix (from Anna)' })).toBeVisible()
  await expect(page.locator('.n-message', { hasText: 'notes.json could not be imported' })).toBeVisible()
  await screenshot(page, 'presets-imported')
  await item('Device mix (from Anna)').locator('.open').click()
  await expect(page.getByTestId('preset-current')).toContainText('Device mix (from Anna)')
  await expect(page.getByTestId('metric-picker')).toContainText('Impressions')
  await expect(page.getByTestId('date')).toHaveAttribute('data-start', '-14d')
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })

  // A web-UI link: its report, dates, metric, breakdown and drill-down become builder state; what it cannot say is listed.
  await page.getByTestId('paste-request').click()
  await page.getByTestId('paste-text').locator('textarea').fill(webLink)
  await page.getByTestId('paste-apply').click()
  const unread = page.getByTestId('paste-unread')
  await expect(unread).toContainText('granularity_week equals 2026-W02 could not be read as dates')
  await expect(unread).toContainText('normalization (value) was not read')
  await screenshot(page, 'presets-pasted-link')
  await page.getByTestId('paste-dialog').getByRole('button', { name: 'Close', exact: true }).click()
  await expect(page.getByTestId('preset-current')).toContainText('Unsaved report')
  await expect(page.getByTestId('filter-row')).toHaveCount(1)
  await expect(page.getByTestId('filter-row')).toContainText('DE')
  await expect(page.getByTestId('breakdown')).toContainText('Device')
  await expect(page.getByTestId('metric-picker')).toContainText('Impressions')
  await expect(page.getByTestId('date')).toHaveAttribute('data-end', 'yesterday')
  // -14d to yesterday is named by what it means (it read "Custom range").
  await expect(page.getByTestId('date-preset')).toContainText('Last 14 days')
  // The builder panel scrolls on its own: bring the drill-down's filter into the picture.
  await page.getByTestId('filter-row').scrollIntoViewIfNeeded()
  await screenshot(page, 'presets-pasted-link-builder')

  // Save a preset and run it, so a result is kept; then the demo backend goes away.
  await page.getByTestId('run').click()
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })
  await page.getByTestId('preset-save-as').click()
  await page.getByTestId('name-input').locator('input').fill('Germany by device')
  await page.getByTestId('name-confirm').click()
  await expect(page.getByTestId('preset-current')).toContainText('Germany by device')
  await host.stopDemoBackend()

  // Opened again: the kept chart at once with its time, the run fails for want of the platform and says so, the chart stays.
  await item('Device mix (from Anna)').locator('.open').click()
  await expect(page.getByTestId('preset-current')).toContainText('Device mix (from Anna)')
  // Its run fails for want of the platform and the kept chart says so (a preset opened sooner would cancel this run: tested below).
  await expect(page.getByTestId('preset-offline')).toBeVisible({ timeout: 30_000 })
  await item('Germany by device').locator('.open').click()
  await expect(page.getByTestId('preset-current')).toContainText('Germany by device')
  await expect(page.getByTestId('preset-offline')).toContainText('Offline: showing the result kept from the last run', { timeout: 30_000 })
  await expect(page.getByTestId('preset-offline')).toContainText('Nothing answers at')
  await expect(page.getByTestId('run-error')).toHaveCount(0)
  await expect(page.getByTestId('result-as-of')).toContainText('Result as of')
  await expect(page.getByTestId('report-chart')).toBeVisible()
  await expect(page.getByTestId('series-row').first()).toBeVisible()
  await expect(page.getByTestId('run')).toBeEnabled()
  await screenshot(page, 'presets-offline')

  // The builder still works from the report's description kept on disk.
  await page.getByTestId('date-preset').click()
  await page.locator('.n-base-select-option:visible', { hasText: 'Last 30 days' }).first().click()
  await expect(page.getByTestId('date')).toHaveAttribute('data-start', '-30d')
  await expect(page.getByTestId('preset-edited')).toBeVisible()
  await expect(page.getByTestId('result-stale')).toBeVisible()
})

withSandbox('a preset opened while a slow run is in flight cancels that run and runs the preset', async ({ page, host, sandbox }) => {
  test.setTimeout(120_000)
  // A sandbox of the test's own (the demo's data): the test can slow its answers down.
  await openSandboxReports(page, host.url, sandbox, { name: 'Sandbox presets' })
  await page.getByTestId('preset-save-as').click()
  await page.getByTestId('name-input').locator('input').fill('Last week')
  await page.getByTestId('name-confirm').click()
  await expect(page.getByTestId('preset-current')).toContainText('Last week')
  const start = (await page.getByTestId('date').getAttribute('data-start')) ?? ''

  // Another question, slowed down by the platform: still running when the preset is opened.
  await page.getByTestId('date-preset').click()
  await page.locator('.n-base-select-option:visible', { hasText: 'Yesterday' }).first().click()
  await expect(page.getByTestId('date')).toHaveAttribute('data-start', 'yesterday')
  await sandbox.setFaults({ latency_ms: 60_000 })
  await page.getByTestId('run').click()
  await expect(page.getByTestId('run-status')).toContainText('Running…')
  // The page says "Running…" before main's request reaches the platform: lifting the latency
  // before it arrived let the "slow" run answer at once on a loaded machine (seen failing).
  await expect.poll(() => sandbox.delayedRequests()).toBeGreaterThan(0)
  await sandbox.setFaults({ latency_ms: 0 })

  await page.locator('[data-test="preset-item"][data-name="Last week"] .open').click()
  await expect(page.getByTestId('date')).toHaveAttribute('data-start', start)
  // Well inside the minute the slow run would take: the preset's own run answered.
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('cancel')).toHaveCount(0)
  await expect(page.getByTestId('run-cancelled')).toHaveCount(0)
  await expect(page.getByTestId('run-error')).toHaveCount(0)
  await expect(page.getByTestId('result-stale')).toHaveCount(0)
  await screenshot(page, 'presets-opened-over-run')

  // The history says what happened: the slow run cancelled, the preset's run done.
  await page.getByTestId('history-show').click()
  await expect(page.locator('[data-test="history-entry"][data-outcome="cancelled"]')).toHaveCount(1)
  await expect(page.locator('[data-test="history-entry"][data-outcome="cancelled"]')).toContainText('yesterday')
  await expect(page.locator('[data-test="history-entry"][data-outcome="ok"]', { hasText: 'Last week' })).toHaveCount(1)
  await screenshot(page, 'presets-opened-over-run-history')
})
