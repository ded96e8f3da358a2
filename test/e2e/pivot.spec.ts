import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { readXlsxTable } from '../../main/services/bulk/read-xlsx'
import { expect, screenshot, test } from './fixtures'
import { chooseOption } from './select'

/**
 * The Pivot tab through the web host on the demo: a report with a comparison, pivoted, sorted
 * by its change with a header click (reached with the keyboard: the grid draws only the
 * columns in view), saved as XLSX and read back from where the web host's "dialog" put it.
 */
const choose = (page: Page, testId: string, text: string, search = false): Promise<void> => chooseOption(page, page.getByTestId(testId), text, search)

/** "+1,234" / "−12.5%" as a number. */
const numberOf = (text: string): number =>
  Number(
    text
      .replace(/[,%\s]/g, '')
      .replace('−', '-')
      .replace('+', ''),
  )

test('a report pivoted, sorted by change and saved as XLSX holds what the grid shows', async ({ page, host }) => {
  test.setTimeout(150_000)
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('welcome')).toHaveCount(0)
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await expect(page.getByTestId('builder')).toBeVisible()
  await choose(page, 'date-preset', 'Last 30 days')
  await choose(page, 'breakdown', 'Device type', true)
  await page.getByTestId('comparison-previous').click()
  await page.getByTestId('run').click()
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })

  await page.getByRole('tab', { name: 'Pivot' }).click()
  const grid = page.getByRole('grid', { name: "Pivot of the report's result" })
  await expect(grid.getByTestId('pivot-row').first()).toBeVisible({ timeout: 30_000 })
  const columns = Number(await grid.getAttribute('aria-colcount')) - 1
  const rows = Number(await grid.getAttribute('aria-rowcount')) - 1

  // Ctrl+End: the last cell (the total's change %), its columns drawn; the total's absolute change sits just before it.
  await grid.locator('[data-cell="0:0"]').focus()
  await page.keyboard.press('Control+End')
  await expect(grid.locator(`[data-cell="${rows - 1}:${columns - 1}"]`)).toBeFocused()
  const changeHeader = grid.locator(`[role="columnheader"][aria-colindex="${columns}"]`)
  await expect(changeHeader).toContainText('Total')
  await expect(changeHeader).toContainText('change')
  await changeHeader.getByRole('button').click()
  await expect(changeHeader).toHaveAttribute('aria-sort', 'descending')

  // The item rows (all but the grand total) by the total's change, largest first.
  const changeColumn = columns - 2
  const shown: { label: string; change: number }[] = []
  for (let row = 0; row < rows - 1; row += 1) {
    const label = (await grid.locator(`[role="row"][aria-rowindex="${row + 2}"] [role="rowheader"]`).textContent()) ?? ''
    shown.push({ label: label.trim(), change: numberOf((await grid.locator(`[data-cell="${row}:${changeColumn}"]`).textContent()) ?? '') })
  }
  expect(shown.length).toBeGreaterThan(2)
  expect(shown.map((row) => row.change)).toEqual([...shown.map((row) => row.change)].sort((left, right) => right - left))
  await screenshot(page, 'pivot-sorted-by-change')

  await page.getByTestId('pivot-save-xlsx').click()
  const message = page.locator('.n-message').last()
  await expect(message).toContainText('Saved demo supply pivot.xlsx', { timeout: 30_000 })
  const bytes = await fs.readFile(path.join(host.userDataDir, 'exports', 'demo supply pivot.xlsx'))
  const sheet = readXlsxTable(new Uint8Array(bytes))
  // Two header rows (the days, then the values), then the grid's rows in the grid's order, the total last.
  const body = sheet.rows.slice(1).map((row) => row.cells)
  expect(body.map((cells) => cells[0])).toEqual([...shown.map((row) => row.label), 'Total'])
  body.slice(0, -1).forEach((cells, index) => expect(Math.round(Number(cells[changeColumn + 1]))).toBe(Math.round(shown[index]?.change ?? NaN)))
})
