import type { Page } from '@playwright/test'
import { expect } from './fixtures'
import { chooseOption } from './select'

export type Theme = 'light' | 'dark'
export const themes: Theme[] = ['light', 'dark']

/** The body's background in each theme: Naive UI's global style paints it in the theme's own. */
export const themeBackground: Record<Theme, string> = { light: 'rgb(255, 255, 255)', dark: 'rgb(16, 16, 20)' }

/** What to do on each screen once it is shown (take a screenshot, run axe…). */
export type OnScreen = (screen: string) => Promise<void>

// By the item's label at its start: an item with a badge (Alerts, once the watch fired) carries its count after it.
const rail = (page: Page, label: string) =>
  page
    .getByTestId('rail')
    .locator('[data-section]')
    .filter({ hasText: new RegExp(`^${label}`) })

/** Pins a theme in Settings, the way a user does, and waits for the page to show it. */
export async function pinTheme(page: Page, theme: Theme): Promise<void> {
  await rail(page, 'Settings').click()
  await page.getByTestId(`theme-${theme}`).click()
  await expect(page.getByTestId(`theme-${theme}`).locator('input')).toBeChecked()
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(themeBackground[theme])
}

/**
 * Every screen of the app, in the order a new user meets them, on a fresh host: settings and
 * About, the welcome screen, connections and the connection form, then the demo workspace's
 * entities, the entity form, an entity opened (its related items), a bulk edit's plan, the change log, the schedules (their editor and run ledger) and alerts, a board (its overrides and its schedule form), reports with a chart and its pivot, and that report exported and opened in Analysis. `onScreen` runs on each.
 */
export async function visitEveryScreen(page: Page, url: string, theme: Theme, onScreen: OnScreen): Promise<void> {
  await page.goto(url)
  await expect(page.getByTestId('welcome')).toBeVisible()
  await pinTheme(page, theme)
  await onScreen('settings')

  await page.getByTestId('open-about').click()
  const about = page.getByTestId('about-dialog')
  await expect(about.getByTestId('about-version')).toBeVisible()
  const licenses = about.getByTestId('about-licenses')
  await expect(licenses).toBeVisible()
  // Searchable, and a license's text opens in place.
  const search = licenses.getByRole('textbox', { name: 'Search licenses' })
  await search.fill('no-such-package-anywhere')
  await expect(licenses).toContainText('No package matches.')
  await search.fill('')
  await licenses
    .getByRole('button', { name: /^Show text:/ })
    .first()
    .click()
  await expect(licenses.getByTestId('license-text')).toBeVisible()
  await onScreen('about')
  await page.keyboard.press('Escape')
  await expect(about).toHaveCount(0)

  await rail(page, 'Entities').click()
  await expect(page.getByTestId('welcome')).toBeVisible()
  await onScreen('welcome')

  await rail(page, 'Connections').click()
  await expect(page.getByTestId('new-profile')).toBeVisible()
  await onScreen('connections')
  await page.getByTestId('new-profile').click()
  await expect(page.getByTestId('field-name')).toBeVisible()
  await onScreen('connection-form')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('field-name')).toBeHidden()

  await rail(page, 'Entities').click()
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('entity-row').first()).toBeVisible({ timeout: 30_000 })
  await onScreen('entities')
  await page.getByTestId('new-entity').click()
  await expect(page.getByTestId('entity-form')).toBeVisible()
  await onScreen('entity-form')
  await page.getByTestId('form-cancel').click()
  await expect(page.getByTestId('entity-form')).toHaveCount(0)
  // A publisher opened by a click: its id, when it was changed here, and its ad units as links.
  await page.getByTestId('entity-row').first().getByRole('gridcell').nth(2).click()
  await expect(page.getByTestId('related-items')).toBeVisible()
  await onScreen('entity-drawer')
  await page.getByTestId('form-cancel').click()
  await expect(page.getByTestId('entity-form')).toHaveCount(0)
  // A bulk edit's plan (nothing is sent): every row shown gets a new external_id.
  await page.getByTestId('bulk-edit-open').click()
  await page.getByTestId('bulk-field').click()
  await page.locator('.n-base-select-option').filter({ hasText: 'External ID' }).click()
  await page.getByTestId('bulk-value').locator('input').fill('TOUR-1')
  await page.getByTestId('bulk-plan').click()
  await expect(page.getByTestId('plan-row').first()).toBeVisible()
  await onScreen('bulk-plan')
  await page.getByTestId('plan-close').click()
  await expect(page.getByTestId('plan-rows')).toHaveCount(0)
  await page.getByTestId('rail').getByText('Change log', { exact: true }).click()
  await expect(page.getByTestId('changes-list')).toBeVisible()
  await onScreen('change-log')

  // The watching screens work without a report: the schedules with the OS entry, the editor, the ledger, the alerts.
  await rail(page, 'Schedules').click()
  await expect(page.getByTestId('os-entry')).toBeVisible()
  await onScreen('schedules')
  await page.getByTestId('schedule-new').click()
  await expect(page.getByTestId('cadence-words')).toBeVisible()
  await onScreen('schedule-editor')
  await page.getByTestId('schedule-cancel').click()
  await expect(page.getByTestId('schedule-editor')).toHaveCount(0)
  await page.getByRole('tab', { name: 'Run ledger' }).click()
  await expect(page.getByTestId('run-ledger')).toBeVisible()
  await onScreen('run-ledger')
  await rail(page, 'Alerts').click()
  await expect(page.getByTestId('alert-list')).toBeVisible()
  await onScreen('alerts')

  // A board with one tile from the demo's own preset, refreshed against the demo.
  await rail(page, 'Boards').click()
  await page.getByTestId('board-new').click()
  await page.getByTestId('name-input').locator('input').fill('Morning')
  await page.getByTestId('name-confirm').click()
  await chooseOption(page, page.getByTestId('board-add-preset'), 'Publishers — daily impressions', true)
  await page.getByTestId('board-add-tile').click()
  await expect(page.locator('[data-test^="board-tile-"]').first()).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  // Drawn at its body's size: ECharts resizes its canvas up to 100 ms after its box changes, and a
  // screenshot taken before showed the canvas 19 px taller than the tile body, its dates cut.
  const chart = page.getByTestId('report-chart').first()
  await expect.poll(async () => (await chart.locator('canvas').first().boundingBox())?.height).toBe((await chart.boundingBox())?.height)
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await onScreen('boards')
  // Its overrides (dates, timezone, connection) and the schedule form with the board chosen.
  await page.getByTestId('board-overrides-open').click()
  await page.getByTestId('overrides-dates-on').click()
  // The one date range control: the preset with its days, the tokens, and main's range today.
  await expect(page.getByTestId('overrides-date-preset')).toContainText('Last 7 days · ')
  await expect(page.getByTestId('overrides-date-text').locator('input')).toHaveValue('-7d to -1d')
  await expect(page.getByTestId('overrides-resolved')).toHaveText(/^Today: \d{4}-\d{2}-\d{2} → \d{4}-\d{2}-\d{2} · 7 days · /)
  await onScreen('board-overrides')
  await page.getByTestId('overrides-cancel').click()
  await expect(page.getByTestId('board-overrides-editor')).toHaveCount(0)
  await page.getByTestId('board-schedule-open').click()
  await expect(page.getByTestId('schedule-editor')).toBeVisible()
  await onScreen('board-schedule-editor')
  await page.getByTestId('schedule-cancel').click()
  await expect(page.getByTestId('schedule-editor')).toHaveCount(0)

  await rail(page, 'Reports').click()
  await expect(page.getByTestId('builder')).toBeVisible()
  await expect(page.getByTestId('run')).toBeEnabled({ timeout: 30_000 })
  await page.getByTestId('run').click()
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-painted', 'true')
  await onScreen('reports')
  // The same result pivoted (issue 24): the grid's colour scale and change colours are checked in both themes.
  await page.getByRole('tab', { name: 'Pivot' }).click()
  await expect(page.getByTestId('pivot-row').first()).toBeVisible({ timeout: 30_000 })
  await onScreen('pivot')

  // The report exported as csv and opened in Analysis: main's pivot of the file, and a SQL answer under it.
  await page.getByTestId('export-open').click()
  await expect(page.getByTestId('export-estimate-note')).toBeVisible({ timeout: 20_000 })
  await page.getByTestId('export-start').click()
  await expect(page.getByTestId('export-job').first()).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await page.getByTestId('export-job-analyse').first().click()
  const analysis = page.getByTestId('analysis-view')
  await expect(analysis.getByTestId('pivot-row').first()).toBeVisible({ timeout: 30_000 })
  // The box's own example (it names the file's table) as the query.
  const sqlQuery = analysis.getByTestId('analysis-sql-query').locator('textarea')
  await sqlQuery.fill((await sqlQuery.getAttribute('placeholder')) ?? '')
  await analysis.getByTestId('analysis-sql-run').click()
  await expect(analysis.getByTestId('analysis-sql-rows')).toBeVisible()
  await onScreen('analysis')
}
