import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import type { Api } from '@contract'
import { screenshot } from './fixtures'
import { expect, openSandboxReports, test } from './entities-fixtures'
import { chooseOption, menuOption, openSelect } from './select'

/**
 * The Analysis section through the web host on the sandbox: a finished csv export opened from
 * the Exports list, pivoted by main's engine (a key down the side, a metric summed, largest
 * first, top 5 with Others), its numbers compared with the file itself read here, then the SQL
 * box: a SELECT answers rows, a query naming a file on disk gets the refusal sentence.
 */

/** One csv line's fields (quoted fields may hold commas and doubled quotes). */
function csvFields(line: string): string[] {
  const fields: string[] = []
  let field = ''
  let quoted = false
  for (let at = 0; at < line.length; at += 1) {
    const character = line[at]
    if (quoted && character === '"' && line[at + 1] === '"') {
      field += '"'
      at += 1
    } else if (character === '"') quoted = !quoted
    else if (character === ',' && !quoted) {
      fields.push(field)
      field = ''
    } else field += character
  }
  fields.push(field)
  return fields
}

/** "1,234.5" as a number. */
const numberOf = (text: string): number => Number(text.replace(/[,\s]/g, ''))

/** A finished csv export split by day and page, in the API's column names, started from the builder; answers its file's name. */
async function exportCsv(page: Page): Promise<string> {
  await page.getByTestId('export-open').click()
  const dialog = page.getByTestId('export-dialog')
  await expect(dialog.getByTestId('export-estimate-note')).toBeVisible({ timeout: 20_000 })
  await page.getByTestId('export-keys-select').click()
  await page.keyboard.type('Page URL')
  await page.locator('.n-base-select-option:visible', { hasText: 'Page URL' }).first().click()
  await page.keyboard.press('Escape')
  // The pivot and the SQL below name the columns as the platform does (page_url).
  await dialog.getByTestId('export-api-column-names').click()
  await page.getByTestId('export-start').click()
  await expect(dialog).toBeHidden()
  const line = page.getByTestId('export-jobs-panel').getByTestId('export-job').first()
  await expect(line).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  return page.evaluate(async () => {
    const listed = await (window as unknown as { api: Api }).api.exports.list({})
    if (!listed.ok) throw new Error(listed.error.message)
    return listed.value.jobs[0]?.fileName ?? ''
  })
}

/** The grid's rows as drawn: each row's label and its first cell's number. */
async function shownRows(grid: Locator): Promise<Array<{ label: string; value: number }>> {
  const rows = Number(await grid.getAttribute('aria-rowcount')) - 1
  const shown: Array<{ label: string; value: number }> = []
  for (let row = 0; row < rows; row += 1) {
    const label = (await grid.locator(`[role="row"][aria-rowindex="${row + 2}"] [role="rowheader"]`).textContent()) ?? ''
    shown.push({ label: label.trim(), value: numberOf((await grid.locator(`[data-cell="${row}:0"]`).textContent()) ?? '') })
  }
  return shown
}

test('a csv export opened in analysis: pivoted top 5 by a sum with the numbers the file holds; the SQL box answers a SELECT and refuses a file on disk', async ({
  page,
  host,
  sandbox,
}) => {
  test.setTimeout(180_000)
  await openSandboxReports(page, host.url, sandbox, { name: 'Sandbox analysis' })
  const fileName = await exportCsv(page)
  const text = await fs.readFile(path.join(host.userDataDir, 'exports', fileName), 'utf8')
  const [header = [], ...records] = text
    .trimEnd()
    .split(/\r?\n/)
    .map((line) => csvFields(line))

  // "Open in analysis": the drawer makes way for the Analysis section, which shows the file.
  await page.getByTestId('export-job-analyse').first().click()
  await expect(page.getByTestId('export-jobs-panel')).toBeHidden()
  const view = page.getByTestId('analysis-view')
  await expect(view).toBeVisible()
  const file = view.getByTestId('analysis-file')
  await expect(file).toContainText(fileName)
  await expect(file).toContainText(`${records.length.toLocaleString('en-US')} rows`)
  const grid = view.getByRole('grid', { name: `Pivot of ${fileName}` })
  await expect(grid.getByTestId('pivot-row').first()).toBeVisible({ timeout: 30_000 })

  // Rows: the page (in place of the first text column the screen starts with).
  const rowsSelect = view.getByTestId('pivot-rows')
  const first = ((await rowsSelect.locator('.n-tag').first().textContent()) ?? '').trim()
  if (first !== 'page_url') {
    await openSelect(page, rowsSelect)
    await menuOption(page, /^page_url$/).click()
    await menuOption(page, new RegExp(`^${first}$`)).click()
    await page.keyboard.press('Escape')
  }
  await expect(rowsSelect.locator('.n-tag')).toHaveText(['page_url'])
  // Values: the metric the screen starts with, summed; sorted by its total, largest first; top 5.
  const valueHeader = grid.locator('[role="columnheader"][aria-colindex="2"]')
  await expect(valueHeader).toContainText(/^sum of /)
  const metric = ((await valueHeader.getByTestId('pivot-sort').locator('.value').textContent()) ?? '').replace(/^sum of /, '').replace(/ [▲▼]$/, '')
  await chooseOption(page, view.getByTestId('pivot-sort-by'), 'Total, largest first')
  await view.getByTestId('pivot-top-on').click()
  await view.getByTestId('pivot-top').locator('input').fill('5')
  await view.getByTestId('pivot-top').locator('input').press('Tab')
  await expect(valueHeader).toHaveAttribute('aria-sort', 'descending')

  // The file's own sums by page, largest first: the top 5, Others holding the rest, then the total.
  const keyAt = header.indexOf('page_url')
  const metricAt = header.indexOf(metric)
  expect(keyAt).toBeGreaterThanOrEqual(0)
  expect(metricAt).toBeGreaterThanOrEqual(0)
  const sums = new Map<string, number>()
  for (const record of records) sums.set(record[keyAt] ?? '', (sums.get(record[keyAt] ?? '') ?? 0) + Number(record[metricAt]))
  const ranked = [...sums.entries()].sort((left, right) => right[1] - left[1])
  expect(ranked.length).toBeGreaterThan(5)
  const total = ranked.reduce((sum, [, value]) => sum + value, 0)
  const expected = [
    ...ranked.slice(0, 5).map(([label, value]) => ({ label, value })),
    { label: 'Others', value: ranked.slice(5).reduce((sum, [, value]) => sum + value, 0) },
    { label: 'Total', value: total },
  ]
  await expect(grid).toHaveAttribute('aria-rowcount', String(expected.length + 1))
  await expect(view.getByTestId('analysis-pivot-size')).toContainText(`${expected.length} rows × 1 column`)
  // The grid's size comes with the pivot, its rows with the window asked for next: the rows are
  // read until they are the new pivot's (a loaded machine once read the old sixth row's label).
  await expect.poll(async () => (await shownRows(grid)).map((row) => row.label)).toEqual(expected.map((row) => row.label))
  const shown = await shownRows(grid)
  shown.forEach((row, index) => expect(row.value).toBeCloseTo(expected[index]?.value ?? NaN, 1))
  await screenshot(page, 'analysis-pivot')

  // The SQL box: a SELECT over the file (the table its tag names, the example shows it) answers rows; naming a file on disk is refused.
  const table = /\((\w+), /.exec((await file.textContent()) ?? '')?.[1] ?? ''
  expect(table).not.toBe('')
  const sql = view.getByTestId('analysis-sql')
  const query = sql.getByTestId('analysis-sql-query').locator('textarea')
  await expect(query).toHaveAttribute('placeholder', `SELECT * FROM ${table} LIMIT 10`)
  await query.fill(`SELECT page_url, SUM("${metric}") AS total FROM ${table} GROUP BY page_url ORDER BY total DESC LIMIT 3`)
  await sql.getByTestId('analysis-sql-run').click()
  await expect(sql.getByTestId('analysis-sql-count')).toHaveText('3 rows')
  const answered = sql.getByTestId('analysis-sql-rows')
  await expect(answered.locator('th')).toHaveText(['page_url', 'total'])
  await expect(answered.locator('tbody tr td:first-child')).toHaveText(ranked.slice(0, 3).map(([label]) => label))
  await screenshot(page, 'analysis-sql')
  await query.fill("SELECT * FROM read_csv('/etc/passwd')")
  await sql.getByTestId('analysis-sql-run').click()
  const refused = sql.getByTestId('analysis-sql-error')
  await expect(refused).toContainText('cannot open other files')
  await expect(refused).not.toContainText('root:')
  await expect(sql.getByTestId('analysis-sql-rows')).toHaveCount(0)
})
