import { promises as fs } from 'node:fs'
import path from 'node:path'
import { pdfText } from '../support/pdf-text'
import { expect, screenshot, test } from './fixtures'
import { legacyPresetFile } from './preset-files'
import { chooseOption } from './select'

/**
 * A board exported as a PDF from its toolbar's button in the web host: main draws it from the
 * tiles' kept results (no window), the web host's "dialog" puts it in its exports folder, and
 * only the file's name crosses the bridge. The file is read back with a PDF reader.
 */

test('a board exported as PDF from its toolbar lands in the exports folder: one page, the board, its tiles and their stamps', async ({ page, host }) => {
  test.setTimeout(300_000)
  const folder = path.join(host.userDataDir, 'presets')
  await fs.mkdir(folder, { recursive: true })
  await fs.writeFile(path.join(folder, 'by-device.json'), JSON.stringify(legacyPresetFile('Supply by device', ['device_type'], 'line')))
  await fs.writeFile(path.join(folder, 'total.json'), JSON.stringify(legacyPresetFile('Supply total', [], 'line')))
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await page.getByTestId('rail').getByText('Boards', { exact: true }).click()
  await page.getByTestId('board-new').click()
  await page.getByTestId('name-input').locator('input').fill('Morning print')
  await page.getByTestId('name-confirm').click()
  for (const [preset, view] of [
    ['Supply by device', 'Chart'],
    ['Supply total', 'Single number'],
  ] as const) {
    await chooseOption(page, page.getByTestId('board-add-preset'), preset, true)
    await chooseOption(page, page.getByTestId('board-add-view'), view)
    await page.getByTestId('board-add-tile').click()
  }
  const tiles = page.locator('[data-test^="board-tile-"]')
  await expect(tiles).toHaveCount(2)
  for (let index = 0; index < 2; index += 1) await expect(tiles.nth(index)).toHaveAttribute('data-status', 'done', { timeout: 60_000 })

  // A menu button by keyboard alone, as a screen reader hears it: the menu takes the focus, its
  // items are menu items, and the one the arrows are on is its active descendant.
  const button = page.getByRole('button', { name: 'Export as…' })
  await expect(button).toHaveAttribute('aria-haspopup', 'menu')
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await button.focus()
  await page.keyboard.press('Enter')
  const menu = page.getByRole('menu', { name: 'Export the board as' })
  await expect(menu).toBeFocused()
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  await expect(menu.getByRole('menuitem')).toHaveText(['PDF document', 'PNG image'])
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(menu).toHaveAttribute('aria-activedescendant', (await menu.getByRole('menuitem', { name: 'PNG image' }).getAttribute('id')) ?? '')
  await page.keyboard.press('ArrowUp')
  await expect(menu).toHaveAttribute('aria-activedescendant', (await menu.getByRole('menuitem', { name: 'PDF document' }).getAttribute('id')) ?? '')
  await page.keyboard.press('Enter')
  // Closed, the focus is back on the button.
  await expect(button).toBeFocused()
  const message = page.locator('.n-message').last()
  await expect(message).toContainText('Saved “Morning print” as Morning print', { timeout: 60_000 })
  // Read before the message fades: it names the file the web host's "dialog" chose.
  const said = (await message.textContent()) ?? ''
  await screenshot(page, 'board-exported-pdf')
  // The toolbar in the dark theme too (the file itself is always drawn in the light, print theme).
  await page.emulateMedia({ colorScheme: 'dark' })
  // Taken once the app and the tile's chart have followed the system to dark (it was taken light before).
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark')
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-theme', 'dark')
  await screenshot(page, 'board-exported-pdf-dark')

  const exportsFolder = path.join(host.userDataDir, 'exports')
  const files = (await fs.readdir(exportsFolder)).filter((name) => name.endsWith('.pdf'))
  expect(files).toHaveLength(1)
  expect(said).toContain(files[0])
  const read = await pdfText(new Uint8Array(await fs.readFile(path.join(exportsFolder, files[0] ?? ''))))
  expect(read.pages).toBe(1)
  const text = read.text.replace(/\s+/g, ' ')
  expect(text).toContain('Morning print')
  expect(text).toContain('Connection: Demo workspace')
  for (const title of ['Supply by device', 'Supply total']) expect(text).toContain(title)
  expect(text).toMatch(/as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/)
  expect(text).not.toContain('No data')
})
