import { expect, screenshot, test } from './fixtures'
import { pinTheme, themes, visitEveryScreen } from './screens'

/**
 * The theme pinned in Settings applies to every screen, charts and tables included, and
 * survives a restart. The screenshots (test/artifacts/screens/<screen>-<theme>.png) are for
 * people to look at: unreadable text in one theme shows there first.
 */
for (const theme of themes) {
  test(`every screen in the ${theme} theme`, async ({ page, host }) => {
    test.setTimeout(120_000)
    await visitEveryScreen(page, host.url, theme, async (screen) => {
      await screenshot(page, `${screen}-${theme}`)
    })
    // The chart draws on a canvas: its text must follow the theme too (ECharts' own dark theme).
    await expect(page.getByTestId('report-chart')).toHaveAttribute('data-theme', theme)
  })
}

test('a pinned theme is remembered across a restart, and following the system again is possible', async ({ page, host }) => {
  await page.goto(host.url)
  await pinTheme(page, 'dark')
  await host.restart()
  await page.goto(host.url)
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(16, 16, 20)')
  await page.getByTestId('rail').getByText('Settings', { exact: true }).click()
  await expect(page.getByTestId('theme-dark').locator('input')).toBeChecked()
  // Headless Chromium prefers light: following the system shows light again.
  await page.getByTestId('theme-system').click()
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)')
})
