import type { Page } from '@playwright/test'
import type { Api } from '@contract'
import { expect, screenshot, test } from './fixtures'
import { pinTheme } from './screens'

const rail = (page: Page, label: string) => page.getByTestId('rail').getByText(label, { exact: true })

/** A connection where nothing answers (port 9 on this computer), made the active one. */
async function useNobodyHome(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await page.evaluate(async () => {
    const api = (window as unknown as { api: Api }).api
    const created = await api.profiles.create({
      name: 'Nobody home',
      baseUrl: 'http://127.0.0.1:9/workflow/v1',
      authUrl: 'http://127.0.0.1:9/auth',
      reportUrl: 'http://127.0.0.1:9/report',
      serviceId: 'demo',
      auth: { method: 'token', token: 'some-token' },
    })
    if (!created.ok) throw new Error(created.error.message)
  })
  await page.reload()
  await page.keyboard.press('Control+Shift+C')
  await page
    .getByTestId('command-palette')
    .getByRole('option', { name: /Nobody home/ })
    .click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Nobody home')
}

test('offline and never synced: Entities says it never synced, a preset never run here says no result is kept', async ({ page, host }) => {
  test.setTimeout(90_000)
  await useNobodyHome(page, host.url)
  for (const theme of ['light', 'dark'] as const) {
    await pinTheme(page, theme)
    await rail(page, 'Entities').click()
    await expect(page.getByTestId('offline-banner')).toBeVisible()
    await expect(page.getByTestId('table-empty')).toContainText('Never synced: this computer has no copy of publishers.')
    await expect(page.getByTestId('table-empty')).not.toContainText('yet.')
    await screenshot(page, `entities-never-synced-${theme}`)

    await rail(page, 'Reports').click()
    await page.locator('[data-test="preset-item"]').first().locator('.open').click()
    const note = page.getByTestId('preset-unreachable')
    await expect(note).toContainText('No result is kept for')
    await expect(note).toContainText('Nothing answers at 127.0.0.1:9')
    // Said once: not also "The report could not be opened".
    await expect(page.getByTestId('info-error')).toHaveCount(0)
    await screenshot(page, `reports-preset-unreachable-${theme}`)
  }
})
