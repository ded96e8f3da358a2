import { expect, test } from './fixtures'

// The axe checks of every screen, in both themes, are in screens.spec.ts (one tour, every check).

/** The tab sets work with the keyboard alone (WAI-ARIA tabs pattern), and Run says its shortcut apart from its name. */
test('the rail, the entity kinds and the report result tabs work by keyboard alone', async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('entity-row').first()).toBeVisible({ timeout: 30_000 })

  const kinds = page.getByRole('tablist', { name: 'Entity kind' })
  const publishers = kinds.getByRole('tab', { name: 'Publishers' })
  await expect(publishers).toHaveAttribute('aria-selected', 'true')
  await publishers.focus()
  // Opening a kind loads its list: the arrows move the focus, Enter opens it.
  await page.keyboard.press('ArrowRight')
  const brands = kinds.getByRole('tab', { name: 'Brands' })
  await expect(brands).toBeFocused()
  await expect(publishers).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(brands).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel', { name: 'Brands' })).toContainText('brand')

  // The rail's items are one tab stop (the arrows move through them, ShellRail.test.ts), opened by Enter, the shown one marked current.
  const rail = page.getByTestId('rail')
  await expect(rail.getByRole('menuitem', { name: 'Entities' })).toHaveAttribute('aria-current', 'page')
  await rail.getByRole('menuitem', { name: 'Reports' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('builder')).toBeVisible()
  await expect(rail.getByRole('menuitem', { name: 'Reports' })).toHaveAttribute('aria-current', 'page')
  const results = page.getByRole('tablist', { name: 'Report result' })
  const series = results.getByRole('tab', { name: 'Time series' })
  await expect(series).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('button', { name: 'Run', exact: true }).first()).toHaveAttribute('aria-keyshortcuts', 'Control+Enter')
  await series.focus()
  // Time series, Pivot (the same result pivoted), Audience.
  await page.keyboard.press('ArrowRight')
  const pivot = results.getByRole('tab', { name: 'Pivot' })
  await expect(pivot).toBeFocused()
  await expect(pivot).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel', { name: 'Pivot' })).toBeVisible()
  await page.keyboard.press('ArrowRight')
  const audience = results.getByRole('tab', { name: 'Audience' })
  await expect(audience).toBeFocused()
  await expect(audience).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel', { name: 'Audience' })).toBeVisible()
  await expect(page.getByTestId('audience-panel')).toBeVisible()
  await page.keyboard.press('Home')
  await expect(series).toBeFocused()
  await expect(page.getByRole('tabpanel', { name: 'Time series' })).toBeVisible()
  await expect(page.getByTestId('audience-panel')).toBeHidden()
  // One tab stop: Shift+Tab from the selected tab leaves the tab set.
  await page.keyboard.press('Shift+Tab')
  await expect(audience).not.toBeFocused()
  await expect(series).not.toBeFocused()
})

/** A system asking for less motion gets none; with the default setting the menus still animate. */
test('less motion when the system asks for it, and the usual motion otherwise', async ({ page, host }) => {
  await page.goto(host.url)
  // Naive UI's buttons fade their colours on hover and press: transitions of their own length.
  const button = page.getByTestId('open-demo')
  await expect(button).toBeVisible()
  const duration = (): Promise<string> => button.evaluate((element) => getComputedStyle(element).transitionDuration)
  // The suite asks for reduced motion (playwright.config.ts).
  await expect.poll(duration).toMatch(/^0\.001s(, 0\.001s)*$/)
  await page.emulateMedia({ reducedMotion: 'no-preference' })
  await expect.poll(duration).toMatch(/[1-9]/)
  expect(await duration()).not.toMatch(/^0\.001s(, 0\.001s)*$/)
})
