import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { themes, visitEveryScreen } from './screens'

/** What axe found that a user of a screen reader, the keyboard or low vision would hit hard. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
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

/** Every screen, in both themes (contrast differs), with no serious or critical axe violation. */
for (const theme of themes) {
  test(`every screen passes axe in the ${theme} theme`, async ({ page, host }) => {
    test.setTimeout(180_000)
    const found: Record<string, string[]> = {}
    await visitEveryScreen(page, host.url, theme, async (screen) => {
      const violations = await seriousViolations(page)
      if (violations.length > 0) found[screen] = violations
    })
    // Every screen at once, so one run lists everything to fix.
    expect(found).toEqual({})
  })
}
