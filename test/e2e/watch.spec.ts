import type { Page } from '@playwright/test'
import { expect, screenshot, test } from './fixtures'
import { chooseOption, menuOption, openSelect } from './select'

/**
 * Watching delivery on the built-in demo through the web host: a preset scheduled and run now
 * shows in the list and the ledger; an alert rule's backtest draws its markers on the builder.
 */

const rail = (page: Page, label: string) => page.getByTestId('rail').getByText(label, { exact: true })

async function saveDemoPreset(page: Page, name: string, shape: () => Promise<void> = async () => undefined): Promise<void> {
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await rail(page, 'Reports').click()
  await expect(page.getByTestId('run')).toBeEnabled({ timeout: 30_000 })
  await shape()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })
  await page.getByTestId('preset-save-as').click()
  await page.getByTestId('name-input').locator('input').fill(name)
  await page.getByTestId('name-confirm').click()
  await expect(page.getByTestId('preset-current')).toContainText(name)
}

test('a preset scheduled, run now: in the list with its outcome, and in the ledger', async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await saveDemoPreset(page, 'Supply watch')

  await rail(page, 'Schedules').click()
  await expect(page.getByTestId('schedules-empty')).toBeVisible()
  await page.getByTestId('schedule-new').click()
  const editor = page.getByTestId('schedule-editor')
  // Not chooseOption: its closing Escape would close the editor too.
  await openSelect(page, editor.getByTestId('schedule-preset'))
  await menuOption(page, 'Supply watch').click()
  await editor.getByTestId('schedule-name').locator('input').fill('Morning supply')
  // The cadence in words and a cron expression's next runs or its error, as typed.
  await expect(editor.getByTestId('cadence-words')).toContainText('Monday to Friday at 07:30')
  await editor.getByTestId('cadence-cron').click()
  await editor.getByTestId('cadence-expression').locator('input').fill('0 0 31 2 *')
  await expect(editor.getByTestId('cadence-cron-error')).toContainText('never fires')
  await editor.getByTestId('cadence-expression').locator('input').fill('15 6 * * *')
  await expect(editor.getByTestId('cadence-next-runs').locator('li')).toHaveCount(3)
  // The folder by its name only, and the file name a run would write today.
  await editor.getByTestId('schedule-choose-folder').click()
  await expect(editor.getByTestId('schedule-folder')).not.toBeEmpty()
  await expect(editor.getByTestId('schedule-pattern-example')).toHaveText(/^Supply watch \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\.xlsx$/)
  await screenshot(page, 'schedule-editor')
  await editor.getByTestId('schedule-save').click()
  await expect(editor).toHaveCount(0)

  const row = page.getByTestId('schedule-Morning supply')
  await expect(row).toContainText('Cron "15 6 * * *"')
  await expect(row.getByTestId('schedule-last-run')).toContainText('Never run')
  // The web host has no scheduler: the row says what runs it, not that an OS entry "has not run it".
  await expect(row.getByTestId('schedule-os-entry')).toHaveText('No OS entry on this system: the app runs it while it is open.')
  await row.getByTestId('schedule-run-now').click()
  await expect(row.getByTestId('schedule-last-run')).toContainText('Succeeded', { timeout: 60_000 })
  await screenshot(page, 'schedules-after-run')

  await page.getByRole('tab', { name: 'Run ledger' }).click()
  const line = page.getByTestId('ledger-entry').first()
  await expect(line).toContainText('Morning supply')
  await expect(line).toContainText(/Wrote Supply watch .+\.xlsx/)
  await expect(line).toHaveAttribute('data-outcome', 'ok')
  await screenshot(page, 'run-ledger-after-run')
  // Filters ask main: nothing failed, and a search that matches nothing says so.
  await chooseOption(page, page.getByTestId('ledger-outcome'), 'Failed')
  await expect(page.getByTestId('ledger-empty')).toContainText('No run matches')
  await chooseOption(page, page.getByTestId('ledger-outcome'), 'Any outcome')
  await expect(page.getByTestId('ledger-entry')).toHaveCount(1)
})

test("an alert rule's backtest draws its baseline band and markers on the builder", async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await saveDemoPreset(page, 'Delivery watch')

  const rules = page.getByTestId('alert-rules')
  await expect(rules).toContainText('Alert rules of “Delivery watch”')
  await rules.getByTestId('alert-rule-add').click()
  // A loose rule, so the demo's 8 weeks give it something to fire on.
  await rules.getByTestId('alert-rule-direction').getByText('Either').click()
  await rules.getByTestId('alert-rule-change').locator('input').fill('5')
  await rules.getByTestId('alert-rule-z').locator('input').fill('1')
  await rules.getByTestId('alert-rule-backtest').click()
  const backtest = rules.getByTestId('alert-backtest')
  await expect(backtest.getByTestId('alert-backtest-summary')).toContainText(/Would (not )?have fired .* over the last 8 weeks/, { timeout: 60_000 })
  const chart = backtest.getByTestId('alert-chart')
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await expect.poll(async () => Number(await chart.getAttribute('data-markers'))).toBeGreaterThan(0)
  await chart.scrollIntoViewIfNeeded()
  await screenshot(page, 'alert-backtest')
  await rules.getByTestId('alert-rule-save').click()
  await expect(rules.getByTestId('alert-rule')).toHaveCount(1)
})

test("the demo's incident fires a scheduled check, and its alert opens with the band and the point that fired", async ({ page, host }) => {
  test.setTimeout(180_000)
  await page.goto(host.url)
  // Every publisher's line: the demo's top publisher fell 60% yesterday.
  await saveDemoPreset(page, 'Publishers watch', () => chooseOption(page, page.getByTestId('breakdown'), 'Publisher', true))
  const rules = page.getByTestId('alert-rules')
  await rules.getByTestId('alert-rule-add').click()
  await rules.getByTestId('alert-rule-change').locator('input').fill('40')
  await rules.getByTestId('alert-rule-floor').locator('input').fill('20000')
  await rules.getByTestId('alert-rule-save').click()
  await expect(rules.getByTestId('alert-rule')).toHaveCount(1)

  await rail(page, 'Schedules').click()
  await page.getByTestId('schedule-new').click()
  const editor = page.getByTestId('schedule-editor')
  await openSelect(page, editor.getByTestId('schedule-preset'))
  await menuOption(page, 'Publishers watch').click()
  await editor.getByTestId('schedule-name').locator('input').fill('Publisher check')
  await editor.getByTestId('schedule-export').click()
  await editor.getByTestId('schedule-check-alerts').click()
  await editor.getByTestId('schedule-save').click()
  await expect(editor).toHaveCount(0)
  const row = page.getByTestId('schedule-Publisher check')
  await row.getByTestId('schedule-run-now').click()
  await expect(row.getByTestId('schedule-last-run')).toContainText('Succeeded', { timeout: 90_000 })

  // The rail's Alerts item now carries its new-alerts badge in its text: found by its section.
  await page.getByTestId('rail').locator('[data-section="alerts"]').click()
  const first = page.locator('[data-alert-item]').first()
  await expect(first).toContainText('fell')
  // Held by its own id: acknowledging it moves it in the list (most unusual first, new before seen).
  const item = page.locator(`[data-test="${await first.getAttribute('data-test')}"]`)
  await item.click()
  const view = page.getByTestId('alert-view')
  await expect(view.getByTestId('alert-data-as-of')).toContainText('Data as of')
  const chart = view.getByTestId('alert-chart')
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await expect.poll(async () => Number(await chart.getAttribute('data-markers'))).toBeGreaterThan(0)
  await screenshot(page, 'alert-view')
  await view.getByTestId('alert-acknowledge').click()
  await expect(item).toContainText('Acknowledged')
})

test("a fresh profile: the demo's planted incidents are in Alerts within 10 s of opening it, with no schedule", async ({ page, host }) => {
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  const opened = Date.now()
  await page.getByTestId('rail').locator('[data-section="alerts"]').click()
  // The page is not reloaded: the list follows the alerts the watch records while it is open.
  await expect(page.locator('[data-alert-item]').first()).toContainText('fell', { timeout: 10_000 })
  expect(Date.now() - opened).toBeLessThan(10_000)
  await rail(page, 'Schedules').click()
  await expect(page.locator('[data-test^="schedule-"][data-test$="-run-now"]')).toHaveCount(0)
})
