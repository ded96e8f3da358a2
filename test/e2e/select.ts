import type { Locator, Page } from '@playwright/test'
import { expect } from '@playwright/test'

/**
 * Naive UI's select menus are teleported to the page's body and fade out when they close, so
 * a menu just closed can still be in the page, and even hold the option asked for next (its
 * search text cleared as it closes). These helpers open one menu at a time and look for
 * options in that menu only.
 */
const openMenus = (page: Page): Locator => page.locator('.n-base-select-menu:visible')

/**
 * Clicks a select's trigger once no other menu is open. (Some menus show only once a few
 * characters are typed, so the click itself does not wait for one.)
 */
export async function openSelect(page: Page, trigger: Locator): Promise<void> {
  await expect(openMenus(page)).toHaveCount(0)
  await trigger.click()
}

/** An option of the one open select menu. */
export const menuOption = (page: Page, text: string | RegExp): Locator => openMenus(page).locator('.n-base-select-option', { hasText: text }).first()

/**
 * Picks an option of a select by its text; `search` types the text first (long lists only
 * render the options in view). A multiple select stays open: Escape closes it, and the menu is
 * waited out so the next select opens alone.
 */
export async function chooseOption(page: Page, trigger: Locator, text: string | RegExp, search = false): Promise<void> {
  await openSelect(page, trigger)
  if (search && typeof text === 'string') await page.keyboard.type(text)
  await menuOption(page, text).click()
  await page.keyboard.press('Escape')
  await expect(openMenus(page)).toHaveCount(0)
}

/**
 * Types `text` into the open value select `select` (suggestions from the platform) and waits for
 * the answer to it: until then the menu still lists the earlier suggestions, then a spinner in
 * their place, and a click on one of them can land as it goes. Seen on a loaded machine: "France
 * (FR)" clicked in the earlier list was never chosen, and the next search was typed after "Fran".
 */
export async function searchValues(page: Page, select: Locator, text: string): Promise<void> {
  await page.keyboard.type(text)
  await expect(select).toHaveAttribute('data-answered', text)
}
