import { unnamedControls } from './accessibility-tree'
import { expect, test } from './fixtures'
import { chooseOption } from './select'

/**
 * What a screen-reader user hears on the screens they work in: Chromium's accessibility tree of
 * the connection form, Entities (the list and a brand's form with a domain), Boards (a board with
 * a tile) and Reports (a run with a filter, the rail around each) names every control by what it
 * does, never by an icon ("loading", "close", "✕") or a placeholder, and each has a main landmark.
 * axe runs on the same screens in screens.spec.ts; axe accepts a control Naive UI names after
 * its spinner, this reads what is said.
 */
test('every control on Reports, Entities, Boards and the connection form has a name of its own', async ({ page, host }) => {
  test.setTimeout(180_000)
  const found: Record<string, string[]> = {}
  const read = async (screen: string, labelsOnly = false): Promise<void> => {
    const problems = await unnamedControls(page, { labelsOnly })
    if (problems.length > 0) found[screen] = problems
  }
  const rail = page.getByTestId('rail')
  await page.goto(host.url)
  await rail.getByText('Connections', { exact: true }).click()
  await page.getByTestId('new-profile').click()
  await expect(page.getByTestId('field-name')).toBeVisible()
  await read('connection form', true)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('field-name')).toBeHidden()

  await rail.getByText('Entities', { exact: true }).click()
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('entity-row').first()).toBeVisible({ timeout: 30_000 })
  await read('entities')
  await page.getByRole('tablist', { name: 'Entity kind' }).getByRole('tab', { name: 'Brands' }).click()
  await page.keyboard.press('Enter')
  await page.getByTestId('new-entity').click()
  await expect(page.getByTestId('entity-form')).toBeVisible()
  await page.getByTestId('domain-new').locator('input').fill('example.com')
  await page.getByTestId('domain-add').click()
  await expect(page.getByTestId('domain-remove-0')).toBeVisible()
  await read('brand form')
  await page.getByTestId('form-cancel').click()
  await page.getByRole('button', { name: 'Discard changes' }).click()
  await expect(page.getByTestId('entity-form')).toHaveCount(0)

  await rail.getByText('Boards', { exact: true }).click()
  await page.getByTestId('board-new').click()
  await page.getByTestId('name-input').locator('input').fill('Morning')
  await page.getByTestId('name-confirm').click()
  await chooseOption(page, page.getByTestId('board-add-preset'), 'Publishers — daily impressions', true)
  await page.getByTestId('board-add-tile').click()
  await expect(page.locator('[data-test^="board-tile-"]').first()).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  await read('boards')

  await rail.getByText('Reports', { exact: true }).click()
  await expect(page.getByTestId('run')).toBeEnabled({ timeout: 30_000 })
  // A breakdown shows the Top N count and its steppers.
  await chooseOption(page, page.getByTestId('breakdown'), 'Country', true)
  await expect(page.getByTestId('lines-count')).toBeVisible()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })
  // A filter being written (Run waits for its key): its selects and its remover are read too.
  await page.getByTestId('filter-add').click()
  await expect(page.getByTestId('filter-row')).toBeVisible()
  await read('reports')

  // Every screen at once, so one run lists everything to fix.
  expect(found).toEqual({})
})
