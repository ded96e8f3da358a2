import { promises as fs } from 'node:fs'
import path from 'node:path'
import { inflateSync } from 'node:zlib'
import type { Page } from '@playwright/test'
import { repositoryRoot } from '../support/child-process'
import { expect, screenshot, test } from './fixtures'
import { chooseOption } from './select'

// With motion, as most users have it (the other specs ask for less): the select menus fade.
test.use({ reducedMotion: 'no-preference' })

/**
 * "Save chart" through the web host: its save "dialog" writes a new file into
 * `<userData>/exports`, so the test reads back exactly what a user would find on disk.
 */

const choose = (page: Page, testId: string, text: string, search = false): Promise<void> => chooseOption(page, page.getByTestId(testId), text, search)

/**
 * The top-left pixel of a PNG, the background there. Whatever filter a row uses, the first
 * pixel of the first row is stored as is, so inflating the image data is enough.
 */
function firstPixel(png: Buffer): number[] {
  const data: Buffer[] = []
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset)
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT') data.push(png.subarray(offset + 8, offset + 8 + length))
    offset += length + 12
  }
  const pixels = inflateSync(Buffer.concat(data))
  return [...pixels.subarray(1, 4)]
}

/** Picks a format in the Save chart menu, waits for the message that names the file, and reads the file. */
async function saveAs(page: Page, exportsFolder: string, format: 'png' | 'svg' | 'csv', fileName = `demo supply.${format}`): Promise<Buffer> {
  await page.getByTestId('save-chart').click()
  await page.getByTestId(`save-chart-${format}`).click()
  const message = page.locator('.n-message').last()
  // A failure shows its sentence here instead, and the assertion prints it.
  await expect(message).toContainText(`Saved ${fileName}`, { timeout: 30_000 })
  // Only the base name crossed the bridge; the file is where the web host's "dialog" put it.
  return fs.readFile(path.join(exportsFolder, fileName))
}

test('the demo chart saved as PNG, SVG and csv lands in the exports folder with the table’s numbers', async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('welcome')).toHaveCount(0)
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await expect(page.getByTestId('builder')).toBeVisible()
  await choose(page, 'date-preset', 'Last 30 days')
  await choose(page, 'breakdown', 'Device type', true)
  await page.getByTestId('run').click()

  const rows = page.getByTestId('series-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  const chart = page.getByTestId('report-chart')
  await expect(chart).toHaveAttribute('data-painted', 'true', { timeout: 30_000 })
  const table = await rows.evaluateAll((elements) =>
    elements.map((element) => ({
      label: element.querySelector('.label')?.getAttribute('title') ?? '',
      total: element.getAttribute('data-total') ?? '',
    })),
  )
  expect(table.length).toBeGreaterThan(2)

  await page.getByTestId('save-chart').click()
  await expect(page.getByTestId('save-chart-svg')).toBeVisible()
  await screenshot(page, 'chart-save-menu')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('save-chart-svg')).toBeHidden()

  const exportsFolder = path.join(host.userDataDir, 'exports')

  const png = await saveAs(page, exportsFolder, 'png')
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  // On the light theme's panel color, not transparent.
  expect(Math.min(...firstPixel(png))).toBeGreaterThan(230)
  expect(png.length).toBeGreaterThan(20_000)
  // Pixel ratio 2: twice the chart's width on screen.
  const chartWidth = await chart.evaluate((element) => Math.round(element.getBoundingClientRect().width))
  expect(Math.abs(png.readUInt32BE(16) - 2 * chartWidth)).toBeLessThanOrEqual(2)

  const svg = (await saveAs(page, exportsFolder, 'svg')).toString('utf8')
  const parsed = await page.evaluate((text) => {
    const document = new DOMParser().parseFromString(text, 'image/svg+xml')
    return {
      root: document.documentElement.nodeName,
      errors: document.getElementsByTagName('parsererror').length,
      text: [...document.querySelectorAll('text')].map((node) => node.textContent ?? ''),
      paths: document.querySelectorAll('path').length,
    }
  }, svg)
  expect(parsed).toMatchObject({ root: 'svg', errors: 0 })
  expect(parsed.paths).toBeGreaterThan(table.length)
  // The file carries its legend: every series by name.
  for (const series of table) expect(parsed.text).toContain(series.label)

  const csv = (await saveAs(page, exportsFolder, 'csv')).toString('utf8').trimEnd().split('\r\n')
  const cells = csv.map((line) => line.split(','))
  const header = cells[0] ?? []
  expect(header.slice(1)).toEqual(table.map((series) => series.label))
  const total = cells[cells.length - 1] ?? []
  expect(total[0]).toBe('Total')
  // The Total row is the series table's totals, number for number.
  expect(total.slice(1)).toEqual(table.map((series) => series.total))
  const points = cells.slice(1, -1)
  expect(points).toHaveLength(Number(await chart.getAttribute('data-categories')))
  // And the points add up to it where the metric can be added up.
  table.forEach((series, index) => {
    if (series.total === '') return
    const sum = points.reduce((sum, row) => sum + Number(row[index + 1] || 0), 0)
    expect(sum).toBeCloseTo(Number(series.total), 6)
  })

  // For people to look at: the PNG as saved, and the SVG as a browser draws it.
  const screens = path.join(repositoryRoot, 'test', 'artifacts', 'screens')
  await fs.writeFile(path.join(screens, 'chart-file-png.png'), png)
  const viewer = await page.context().newPage()
  await viewer.setContent(svg)
  await viewer
    .locator('svg')
    .first()
    .screenshot({ path: path.join(screens, 'chart-file-svg.png') })
  await viewer.close()

  // The dark theme's file is on the dark panel; a second save is a new file, the first one kept.
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(chart).toHaveAttribute('data-painted', 'true', { timeout: 30_000 })
  const dark = await saveAs(page, exportsFolder, 'png', 'demo supply (2).png')
  expect(Math.max(...firstPixel(dark))).toBeLessThan(60)
  await fs.writeFile(path.join(screens, 'chart-file-png-dark.png'), dark)

  // A line switched off in the legend is off in the files too: not drawn, not named, not in the csv.
  const off = page.getByTestId('legend-item').first()
  const offLabel = ((await off.locator('.label').textContent()) ?? '').trim()
  expect(table.map((series) => series.label)).toContain(offLabel)
  const others = table.map((series) => series.label).filter((label) => label !== offLabel)
  // So that "not named" cannot be fooled by a longer name that contains it.
  expect(others.some((label) => label.includes(offLabel))).toBe(false)
  await off.locator('.toggle').click()
  await expect(chart).toHaveAttribute('data-series', String(table.length - 1))
  await expect(chart).toHaveAttribute('data-painted', 'true')
  const svgOff = (await saveAs(page, exportsFolder, 'svg', 'demo supply (2).svg')).toString('utf8')
  const parsedOff = await page.evaluate((text) => {
    const document = new DOMParser().parseFromString(text, 'image/svg+xml')
    return { text: [...document.querySelectorAll('text')].map((node) => node.textContent ?? ''), paths: document.querySelectorAll('path').length }
  }, svgOff)
  expect(parsedOff.text.filter((text) => text.includes(offLabel))).toEqual([])
  for (const label of others) expect(parsedOff.text).toContain(label)
  // Its line and its legend icon are gone from the drawing.
  expect(parsedOff.paths).toBeLessThan(parsed.paths)
  const csvOff = (await saveAs(page, exportsFolder, 'csv', 'demo supply (2).csv')).toString('utf8').split('\r\n')
  expect((csvOff[0] ?? '').split(',').slice(1)).toEqual(others)

  // Six saves, six files, nothing else (no temporary file left behind).
  expect((await fs.readdir(exportsFolder)).sort()).toEqual([
    'demo supply (2).csv',
    'demo supply (2).png',
    'demo supply (2).svg',
    'demo supply.csv',
    'demo supply.png',
    'demo supply.svg',
  ])
})
