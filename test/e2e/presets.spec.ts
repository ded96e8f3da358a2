import type { Page, Route } from '@playwright/test'
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
  await item('Supply check copy').getByTestId('preset-actions').click()
  await page.locator('.n-dropdown-option', { hasText: 'Delete' }).last().click()
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
