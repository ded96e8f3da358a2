import type { Locator, Page } from '@playwright/test'
import type { Api } from '@contract'
import { screenshot } from './fixtures'
import { expect, openSandboxReports, test, type SandboxProcess } from './entities-fixtures'
import { chooseOption, menuOption, openSelect, searchValues } from './select'

/**
 * The report builder in Chromium through the web host. A sandbox of our own (the demo's data:
 * project `demo`, report `supply`) stands behind a saved connection, so the test can ask it the
 * same question directly and compare numbers, slow it down, and stop it.
 */

/** Saves a connection to the sandbox with the demo report as its default, makes it active, opens Reports. */
const openReports = (page: Page, hostUrl: string, sandbox: SandboxProcess): Promise<void> =>
  openSandboxReports(page, hostUrl, sandbox, { name: 'Sandbox reports' })

/** An option of the one open select menu. */
const option = menuOption

/** Picks an option of a select by its text; `search` types it first (long lists only render the options in view). */
const choose = (page: Page, testId: string, text: string, search = false): Promise<void> => chooseOption(page, page.getByTestId(testId), text, search)

/** Whether a column's heading in the series table lies wholly inside the table's box, as the user sees it. */
async function columnInView(table: Locator, title: string): Promise<boolean> {
  const [cell, box] = [await table.locator('th', { hasText: title }).first().boundingBox(), await table.boundingBox()]
  return cell !== null && box !== null && cell.x >= box.x - 1 && cell.x + cell.width <= box.x + box.width + 1
}

/** A direct Reporting API call to the sandbox, behind the app's back. */
async function report(sandbox: SandboxProcess, operation: 'time_series' | 'audience', body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.info.report_url}/API/v2/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ project_name: 'demo', slicer_name: 'supply', token: sandbox.info.permanent_token, ...body }),
  })
  const answer = (await response.json()) as Record<string, unknown>
  expect(answer.status, JSON.stringify(answer)).toBe('success')
  return answer
}

test('a time series by country with a filter and a comparison equals what the platform computes', async ({ page, host, sandbox }) => {
  // Four direct calls to check against, two themes and two chart types: more than the default minute on a busy machine.
  test.setTimeout(150_000)
  await openReports(page, host.url, sandbox)
  await expect(page.getByTestId('chart-empty')).toBeVisible()
  await screenshot(page, 'reports-builder-empty')

  await choose(page, 'date-preset', 'Last 30 days')
  await expect(page.getByTestId('date')).toHaveAttribute('data-start', '-30d')
  await expect(page.getByTestId('date-text').locator('input')).toHaveValue('-30d to -1d')
  await expect(page.getByTestId('resolved-range')).toContainText('30 days')
  await choose(page, 'breakdown', 'Country', true)
  await expect(page.getByTestId('line-count')).toHaveText('11 of 50 lines')

  await page.getByTestId('filter-add').click()
  const filter = page.getByTestId('filter-row').first()
  // Typed, like a user looking for one key among many; each menu opens once the last is gone.
  await openSelect(page, filter.getByTestId('filter-key'))
  await page.keyboard.type('Device type')
  await option(page, 'Device type').click()
  await openSelect(page, filter.getByTestId('filter-match'))
  await option(page, /^not equals$/).click()
  const values = filter.getByTestId('filter-values')
  await openSelect(page, values)
  await searchValues(page, values, 'ctv')
  // Suggestions come from the platform after three characters, with the value's name.
  await option(page, 'Connected TV').click()
  await page.keyboard.press('Escape')

  await page.getByTestId('comparison-previous').click()
  await page.getByTestId('run').click()

  const rows = page.getByTestId('series-row')
  await expect(rows).toHaveCount(11, { timeout: 30_000 })
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-categories', '30')
  const range = page.getByTestId('resolved-range')
  // The range the numbers are for is the result's own: the builder's range follows the clock, and a
  // run at midnight UTC answered for the new day while the builder still showed the old one (a gate
  // run at 23:59 compared 29 days of data with 30).
  const start = (await page.getByTestId('report-chart').getAttribute('data-range-start')) ?? ''
  const end = (await page.getByTestId('report-chart').getAttribute('data-range-end')) ?? ''
  const timezone = Number(await range.getAttribute('data-timezone'))
  const shown = await rows.evaluateAll((elements) =>
    elements.map((element) => ({
      line: element.getAttribute('data-line') ?? '',
      total: Number(element.getAttribute('data-total')),
      change: Number(element.getAttribute('data-change')),
    })),
  )

  // The same question, asked directly: the top 10 countries by requests, then their days.
  const scope = { start_date: start, end_date: end, timezone, filters: [{ name: 'device_type', value: ['ctv'], match: 'not equals' }] }
  const ranking = await report(sandbox, 'time_series', {
    ...scope,
    granularity: 'country',
    split_by: [],
    chart_lines: ['__total__'],
    data_field: 'requests',
    order_by: { name: 'requests', direction: 'DESC' },
    limit: 10,
  })
  const top = (ranking.rows as Array<{ __time__: string }>).map((row) => row.__time__)
  expect(shown.map((row) => row.line).sort()).toEqual([...top, '__total__'].sort())
  const sums = async (from: string, to: string): Promise<Record<string, number>> => {
    const answer = await report(sandbox, 'time_series', {
      ...scope,
      start_date: from,
      end_date: to,
      granularity: 'granularity_day',
      split_by: ['country'],
      chart_lines: [...top, '__total__'],
      data_field: 'requests',
    })
    const totals: Record<string, number> = {}
    for (const row of answer.rows as Array<Record<string, number>>)
      for (const line of [...top, '__total__']) totals[line] = (totals[line] ?? 0) + (row[line] ?? 0)
    return totals
  }
  const current = await sums(start, end)
  for (const row of shown) expect(row.total, row.line).toBe(current[row.line])

  // Previous period: the 30 days just before, and the change against them.
  const day = (text: string, shift: number): string => new Date(Date.parse(`${text}T00:00:00Z`) + shift * 86_400_000).toISOString().slice(0, 10)
  const before = await sums(day(start, -30), day(start, -1))
  const total = shown.find((row) => row.line === '__total__')
  expect(total?.change).toBeCloseTo((((current.__total__ ?? 0) - (before.__total__ ?? 0)) / (before.__total__ ?? 1)) * 100, 6)

  // The legend drives the chart: 11 lines and the Total's dashed comparison (each line's is on
  // demand, "Compare every line"); "only" one line leaves it alone.
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-series', '12')
  await page.getByTestId('legend-item').first().hover()
  await page.getByTestId('legend-item').first().getByTestId('legend-only').click()
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-series', '1')
  await expect(page.getByTestId('legend-count')).toHaveText('1 of 11 shown')
  await page.getByTestId('legend-show-all').click()
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-series', '12')
  const chart = page.getByTestId('report-chart')
  await page.mouse.move(0, 0)
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await screenshot(page, 'reports-result-light')
  await page.getByTestId('series-table').evaluate((element) => element.scrollIntoView({ block: 'end' }))
  // Eight-digit totals in a 1320 px window: every column still shows at once, Change whole.
  expect(await columnInView(page.getByTestId('series-table'), 'Change')).toBe(true)
  await screenshot(page, 'reports-table')
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin })
  await page.getByTestId('copy-tsv').click()
  const tsv = (await page.evaluate(() => navigator.clipboard.readText())).split('\n')
  expect(tsv[0]).toBe('Series\tMetric\tTotal\tAverage\tMin\tMax\tChange %')
  expect(tsv.filter((line) => line.startsWith(`Total\trequests\t${current.__total__ ?? 'missing'}\t`))).toHaveLength(1)
  await chart.hover({ position: { x: 320, y: 160 } })
  await expect(page.locator('.report-tooltip').filter({ hasText: 'Total' })).toBeVisible()
  await screenshot(page, 'reports-tooltip')
  await page.mouse.move(0, 0)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await screenshot(page, 'reports-result-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.getByTestId('chart-type-stacked').click()
  await expect(chart).toHaveAttribute('data-type', 'stacked')
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await screenshot(page, 'reports-stacked')
})

test('the audience of the demo workspace comes with its confidence range', async ({ page, host }) => {
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('welcome')).toHaveCount(0)
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await expect(page.getByTestId('builder')).toBeVisible()
  await page.getByTestId('reports-tabs').getByText('Audience', { exact: true }).click()
  await expect(page.getByTestId('metrics-field')).toHaveCount(0)

  await choose(page, 'date-preset', 'Last 30 days')
  await choose(page, 'audience-breakdown', 'Device type', true)
  // Least precision: the platform reads 10,000 records of the range's ~18,000 and estimates.
  const slider = page.getByTestId('audience-precision').getByRole('slider')
  await slider.focus()
  for (let step = 0; step < 9; step++) await page.keyboard.press('ArrowLeft')
  await expect(page.getByTestId('audience-panel')).toContainText('Reads up to 10,000 records')
  await page.getByTestId('audience-panel').getByTestId('run').click()

  const total = page.getByTestId('audience-total').first()
  await expect(total).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('audience-confidence')).toHaveText(/^±\d+(\.\d)?%$/)
  await expect(page.getByTestId('audience-days')).toHaveText(/Data on \d+ of 30 days/)
  await expect(page.getByTestId('audience-records')).toContainText('records scanned')
  await expect(page.getByTestId('audience-row')).toHaveCount(4)
  await screenshot(page, 'reports-audience')
})

test('lines picked by hand, a slow query cancelled, and a failing one says why', async ({ page, host, sandbox }) => {
  await openReports(page, host.url, sandbox)
  // A date the grammar does not know is said at the date range control, and the range stays as it was.
  const typed = page.getByTestId('date-text').locator('input')
  await typed.fill('-7x')
  await typed.press('Enter')
  await expect(page.getByTestId('date-problem')).toContainText('"-7x" is not a date')
  await expect(page.getByTestId('date')).toHaveAttribute('data-start', '-7d')
  // A pasted token reads as the preset it means.
  await typed.fill('')
  await page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('[data-test="date-text"] input')
    const data = new DataTransfer()
    data.setData('text/plain', '-14d')
    input?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
  })
  await expect(page.getByTestId('date-preset')).toContainText('Last 14 days')
  await expect(page.getByTestId('date-understood')).toContainText('Read as Last 14 days')
  await expect(page.getByTestId('resolved-range')).toContainText('14 days')
  await screenshot(page, 'reports-date-range-pasted')
  await choose(page, 'date-preset', 'Last 7 days')
  await expect(page.getByTestId('run')).toBeEnabled()

  await choose(page, 'breakdown', 'Country', true)
  // Too many lines are explained before anything is sent.
  await page.getByTestId('lines-count').locator('input').fill('50')
  await page.getByTestId('lines-count').locator('input').blur()
  await expect(page.getByTestId('lines-problem')).toContainText('51 lines')
  await expect(page.getByTestId('run-blocker')).toContainText('at most 50 per chart')
  await expect(page.getByTestId('run')).toBeDisabled()

  await page.getByTestId('lines-pick').click()
  await openSelect(page, page.getByTestId('line-values'))
  // The platform's top values come first, and typing searches for more.
  await expect(option(page, 'France (FR)')).toBeVisible()
  await searchValues(page, page.getByTestId('line-values'), 'Fran')
  await option(page, 'France (FR)').click()
  await searchValues(page, page.getByTestId('line-values'), 'Germ')
  await option(page, 'Germany (DE)').click()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('line-count')).toHaveText('3 of 50 lines')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('series-row')).toHaveCount(3, { timeout: 30_000 })
  await expect(page.getByTestId('series-row').locator('text=France')).toHaveCount(1)

  await sandbox.setFaults({ latency_ms: 60_000 })
  await page.getByTestId('run').click()
  await expect(page.getByTestId('cancel')).toBeVisible()
  await expect(page.getByTestId('run-status')).toContainText('Running…')
  // The page stays responsive while main waits: the builder still edits.
  await choose(page, 'date-preset', 'Yesterday')
  await expect(page.getByTestId('date')).toHaveAttribute('data-start', 'yesterday')
  await page.getByTestId('cancel').click()
  await expect(page.getByTestId('run-cancelled')).toBeVisible()
  await expect(page.getByTestId('cancel')).toHaveCount(0)
  await expect(page.getByTestId('run')).toBeEnabled()

  await sandbox.setFaults({ latency_ms: 0, report_status: 'timeout' })
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('run-error')).toContainText('took too long', { timeout: 30_000 })
  await screenshot(page, 'reports-error')
})

test('lines of two keys picked by hand with search, counted, labelled "A / B" and drawn under those names', async ({ page, host, sandbox }) => {
  // Four searches and two selects before the run: more steps than the default minute allows on a busy machine.
  test.setTimeout(120_000)
  await openReports(page, host.url, sandbox)
  await choose(page, 'breakdown', 'Country', true)
  await choose(page, 'breakdown', 'Device type', true)
  await page.getByTestId('lines-pick').click()
  await expect(page.getByTestId('line-count')).toHaveText('1 of 50 lines')

  // One value of each key, found by typing, makes one line.
  const pickLine = async (first: [string, string], second: [string, string]): Promise<void> => {
    for (const [index, [typed, shown]] of [first, second].entries()) {
      await openSelect(page, page.getByTestId(`line-value-${index}`))
      await searchValues(page, page.getByTestId(`line-value-${index}`), typed)
      await option(page, shown).click()
    }
    await page.getByTestId('line-add').click()
  }
  await expect(page.getByTestId('line-add')).toBeDisabled()
  await pickLine(['Fran', 'France (FR)'], ['Desk', 'Desktop (desktop)'])
  await expect(page.getByTestId('line-count')).toHaveText('2 of 50 lines')
  await pickLine(['Germ', 'Germany (DE)'], ['Mob', 'Mobile (mobile)'])
  await expect(page.getByTestId('line-count')).toHaveText('3 of 50 lines')
  await expect(page.getByTestId('line-chip')).toHaveText(['France / Desktop', 'Germany / Mobile'])
  await screenshot(page, 'reports-line-picker')

  await page.getByTestId('run').click()
  const rows = page.getByTestId('series-row')
  await expect(rows).toHaveCount(3, { timeout: 30_000 })
  // Sent as the values joined by U+0002, one line per combination, plus Total.
  expect((await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-line')))).sort()).toEqual(
    ['DE\u0002mobile', 'FR\u0002desktop', '__total__'].sort(),
  )
  const chart = page.getByTestId('report-chart')
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await expect(chart).toHaveAttribute('data-series', '3')
  // The names ECharts itself draws the series under (its description of the canvas).
  const described = chart.locator('[role="img"][aria-label]')
  await expect(described).toHaveAttribute('aria-label', /FR — France \/ desktop — Desktop/)
  await expect(described).toHaveAttribute('aria-label', /DE — Germany \/ mobile — Mobile/)
  await expect(described).toHaveAttribute('aria-label', /Total/)
  await expect(page.getByTestId('legend-item')).toHaveText(
    ['FR — France / desktop — Desktop', 'DE — Germany / mobile — Mobile', 'Total'].map((text) => new RegExp(text)),
  )
  await screenshot(page, 'reports-two-keys')

  // Switching a line off in the legend takes it out of what ECharts draws, and back.
  await page.getByTestId('legend-item').filter({ hasText: 'France' }).locator('.toggle').click()
  await expect(chart).toHaveAttribute('data-series', '2')
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await expect(described).not.toHaveAttribute('aria-label', /France/)
  await page.getByTestId('legend-show-all').click()
  await expect(described).toHaveAttribute('aria-label', /France/)
})

test('offline, the builder opens from the report description kept on disk', async ({ page, host, sandbox }) => {
  await openReports(page, host.url, sandbox)
  await expect(page.getByTestId('info-offline')).toHaveCount(0)
  await sandbox.stop()
  await host.restart()
  await page.goto(host.url)
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await expect(page.getByTestId('info-offline')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('info-offline')).toContainText('Offline')
  await expect(page.getByTestId('metric-picker')).toContainText('Ad requests')
  await screenshot(page, 'reports-offline')
})

test('Reports stays as it was while another section is shown, and hands its keys back meanwhile', async ({ page, host, sandbox }) => {
  await openReports(page, host.url, sandbox)
  await page.getByTestId('run').click()
  const chart = page.getByTestId('report-chart')
  await expect(chart).toHaveAttribute('data-painted', 'true', { timeout: 30_000 })
  // State only the view's components hold (not the store): the legend's search text.
  await page.getByTestId('legend-search').locator('input').fill('Tot')
  await expect(page.getByTestId('legend-item')).toHaveCount(1)

  const runs: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('reports%3Arun')) runs.push(request.url())
  })
  await page.getByTestId('rail').getByText('Entities', { exact: true }).click()
  await expect(page.getByTestId('entities-view')).toBeVisible()
  await expect(page.getByTestId('reports-view')).toHaveCount(0)
  // Ctrl+Enter is Run Report only while Reports is shown.
  await page.keyboard.press('Control+Enter')
  // A call through the page's bridge after the key: a run the key had started would have been
  // asked of main before this call's answer came back, so once it is back, none was.
  await page.evaluate(async () => {
    await (window as unknown as { api: Api }).api.exports.list({})
  })
  expect(runs).toHaveLength(0)

  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await expect(chart).toHaveAttribute('data-painted', 'true')
  await expect(page.getByTestId('legend-search').locator('input')).toHaveValue('Tot')
  await expect(page.getByTestId('legend-item')).toHaveCount(1)
  await page.keyboard.press('Control+Enter')
  await expect.poll(() => runs.length).toBe(1)
})

test('the series table fits the chart panel of a laptop window, and in a narrower one scrolls sideways with Series kept in view', async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 1320, height: 900 })
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('welcome')).toHaveCount(0)
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await expect(page.getByTestId('run')).toBeEnabled({ timeout: 30_000 })
  await page.getByTestId('comparison-previous').click()
  await page.getByTestId('run').click()
  const table = page.getByTestId('series-table')
  await expect(table.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })
  const inside = (title: string): Promise<boolean> => columnInView(table, title)
  // A 1320 px window: every column shows at once, Change included.
  expect(await inside('Change')).toBe(true)
  expect(await inside('Series')).toBe(true)

  // Narrower: the table scrolls sideways; scrolled to its end, Change is whole and Series still names the rows.
  await page.setViewportSize({ width: 1100, height: 900 })
  await expect.poll(() => inside('Change')).toBe(false)
  await table.locator('.n-data-table-base-table-body').hover()
  await page.mouse.wheel(2000, 0)
  await expect.poll(() => inside('Change')).toBe(true)
  expect(await inside('Series')).toBe(true)
  await screenshot(page, 'reports-series-table-narrow')
})
