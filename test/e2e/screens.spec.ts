import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, screenshot, test } from './fixtures'
import { pinTheme, themeBackground, themes, visitEveryScreen, type Theme } from './screens'

/**
 * The axe rules whose outcome depends on colours, the only thing a theme changes: the first
 * theme's tour runs every rule, the second only these (names, roles and structure are the same
 * in both, and axe over every screen is the slowest part of the suite).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

/** What axe found that a user of a screen reader, the keyboard or low vision would hit hard. */
async function seriousViolations(page: Page, theme: Theme): Promise<string[]> {
  // Only violations are read: axe still runs every rule, but keeps one node of each pass and
  // inapplicable rule instead of all of them (measured on Reports: about 0.4 CPU s less in the
  // runner and 0.2 s less in the page per screen, the same violations found).
  // Legacy mode runs axe.run() in the page itself. The default runs each frame's part there,
  // then opens a blank tab, injects axe's 650 KB again and merges the parts in it, per screen:
  // the light tour took 65 CPU s that way and 38 this way. The app has no frames, which are
  // all the default mode adds (cross-origin ones). Checked when it was changed: a nameless button
  // planted in the rail was still reported on every screen of the light tour (every rule), and a
  // low-contrast text on every screen of the dark one (the colour rules).
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(true)
  const results = await (
    theme === themes[0] ? builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']) : builder.withRules(COLOUR_RULES)
  ).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
          .slice(0, 5)
          .map((node) => `    ${node.target.join(' ')} ${node.html.slice(0, 160)}: ${node.failureSummary?.split('\n').join(' ') ?? ''}`)
          .join('\n')}`,
    )
}

/**
 * One tour of every screen per theme, with every check on each screen: it is drawn in the
 * pinned theme (the page and, on Reports, the chart's canvas), axe finds no serious or critical
 * violation (every rule in the light theme, the colour rules in the dark one), and a screenshot is kept for people to look at
 * (test/artifacts/screens/<screen>-<theme>.png: unreadable text in one theme shows there first).
 */
for (const theme of themes) {
  test(`every screen in the ${theme} theme: drawn in it, and no serious axe violation`, async ({ page, host }) => {
    // Every screen, an export and its analysis, with axe on each: minutes on a busy machine.
    test.setTimeout(300_000)
    const found: Record<string, string[]> = {}
    const drawnIn: Record<string, string> = {}
    await visitEveryScreen(page, host.url, theme, async (screen) => {
      drawnIn[screen] = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
      // The chart draws on a canvas: its text must follow the theme too (ECharts' own dark theme). Checked on
      // Reports itself: the tour ends elsewhere (Analysis).
      if (screen === 'reports') await expect(page.getByTestId('report-chart')).toHaveAttribute('data-theme', theme)
      await screenshot(page, `${screen}-${theme}`)
      const violations = await seriousViolations(page, theme)
      if (violations.length > 0) found[screen] = violations
    })
    // Every screen at once, so one run lists everything to fix.
    expect(found).toEqual({})
    expect(new Set(Object.values(drawnIn))).toEqual(new Set([themeBackground[theme]]))
  })
}

test('a pinned theme is remembered across a restart, and following the system again is possible', async ({ page, host }) => {
  await page.goto(host.url)
  await pinTheme(page, 'dark')
  await host.restart()
  await page.goto(host.url)
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(themeBackground.dark)
  // Native controls (check boxes, scroll bars) are drawn dark too, though the system prefers light.
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark')
  await page.getByTestId('rail').getByText('Settings', { exact: true }).click()
  await expect(page.getByTestId('theme-dark').locator('input')).toBeChecked()
  // Headless Chromium prefers light: following the system shows light again.
  await page.getByTestId('theme-system').click()
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(themeBackground.light)
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('light')
})
