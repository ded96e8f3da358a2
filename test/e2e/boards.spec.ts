import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Page, Route } from '@playwright/test'
import { expect, screenshot, test } from './fixtures'
import { legacyPresetFile } from './preset-files'
import { chooseOption, menuOption, openSelect } from './select'

/**
 * Boards on the built-in demo through the web host: a board of four presets, reopened after a
 * reload from kept results before any refresh answers, then opened again with the demo backend
 * gone: offline, the tiles kept.
 */

/** Four presets a teammate's git folder might hold (format 0 is read and brought up to date). */
const presets = [
  { file: 'supply-device.json', preset: legacyPresetFile('Supply by device', ['device_type'], 'area'), view: 'Chart' },
  { file: 'supply-country.json', preset: legacyPresetFile('Supply by country', ['country'], 'line'), view: 'Series table' },
  { file: 'supply-total.json', preset: legacyPresetFile('Supply total', [], 'line'), view: 'Single number' },
  { file: 'supply-bars.json', preset: legacyPresetFile('Supply bars', ['device_type'], 'bar'), view: 'Chart' },
]

const tiles = (page: Page) => page.locator('[data-test^="board-tile-"]')

test('a board of four presets opens at once from kept results after a reload, and offline keeps its tiles', async ({ page, host }) => {
  test.setTimeout(180_000)
  const folder = path.join(host.userDataDir, 'presets')
  await fs.mkdir(folder, { recursive: true })
  for (const { file, preset } of presets) await fs.writeFile(path.join(folder, file), JSON.stringify(preset, null, 2))
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await page.getByTestId('rail').getByText('Boards', { exact: true }).click()
  await expect(page.getByTestId('boards-empty')).toBeVisible()

  await page.getByTestId('board-new').click()
  await page.getByTestId('name-input').locator('input').fill('Morning')
  await page.getByTestId('name-confirm').click()
  await expect(page.getByTestId('board-empty')).toBeVisible()
  for (const { preset, view } of presets) {
    await chooseOption(page, page.getByTestId('board-add-preset'), preset.name, true)
    await chooseOption(page, page.getByTestId('board-add-view'), view)
    await page.getByTestId('board-add-tile').click()
    await expect(tiles(page).filter({ hasText: preset.name })).toHaveCount(1)
  }
  await expect(tiles(page)).toHaveCount(4)
  await expect(page.getByTestId('board-row-Morning')).toContainText('4 tiles')
  for (let index = 0; index < 4; index += 1) await expect(tiles(page).nth(index)).toHaveAttribute('data-status', 'done', { timeout: 60_000 })
  await expect(page.getByTestId('tile-number')).toBeVisible()

  // The keyboard moves and resizes a tile; a screen reader hears where it is.
  const first = page.getByTestId('board-tile-tile-1')
  await first.focus()
  await page.keyboard.press('Shift+ArrowUp')
  await expect(first).toHaveAttribute('aria-label', 'Tile Supply by device, column 1, row 1, 6 wide, 3 high')
  await page.keyboard.press('ArrowDown')
  await expect(first).toHaveAttribute('aria-label', 'Tile Supply by device, column 1, row 2, 6 wide, 3 high')
  await screenshot(page, 'boards-refreshed')

  // Presenting: the board alone, its own title and an auto-refresh interval; Esc leaves and stops it.
  await page.getByTestId('board-present').click()
  await expect(page.getByTestId('board-present-bar')).toBeVisible()
  await expect(page.getByTestId('board-present-bar').getByRole('heading', { name: 'Morning' })).toBeVisible()
  // It covers the whole window, over the app's rail and header.
  const covered = await page.getByTestId('board-canvas').evaluate((canvas) => {
    const box = canvas.getBoundingClientRect()
    return box.left <= 0 && box.top <= 0 && box.width >= window.innerWidth && box.height >= window.innerHeight
  })
  expect(covered).toBe(true)
  await expect(page.getByTestId('board-add-tile')).toHaveCount(0)
  // Esc that closes the interval's menu only closes the menu.
  await openSelect(page, page.getByTestId('board-interval'))
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('board-present-bar')).toBeVisible()
  await openSelect(page, page.getByTestId('board-interval'))
  await menuOption(page, 'Auto-refresh every 5 min').click()
  await expect(page.getByTestId('board-interval')).toContainText('every 5 min')
  await expect(page.getByTestId('board-present-bar')).toBeVisible()
  await screenshot(page, 'boards-presenting')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('board-present-bar')).toHaveCount(0)
  await expect(page.getByTestId('board-add-tile')).toBeVisible()

  // After a reload every tile is painted from its kept result while the refresh is still held back.
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  const holdRun = async (route: Route): Promise<void> => {
    await held
    await route.continue()
  }
  const isRun = (url: URL) => url.pathname.endsWith('/__host/invoke/reports%3Arun')
  await page.route(isRun, holdRun)
  await page.reload()
  await page.getByTestId('rail').getByText('Boards', { exact: true }).click()
  await page.getByTestId('board-row-Morning').getByTestId('board-open').click()
  await expect(tiles(page)).toHaveCount(4)
  for (let index = 0; index < 4; index += 1) await expect(tiles(page).nth(index).getByTestId('tile-as-of')).toContainText('as of')
  await expect(page.getByTestId('board-cancel')).toBeVisible()
  await expect(page.getByTestId('board-tile-tile-1')).toHaveAttribute('aria-label', /row 2, 6 wide, 3 high/)
  await screenshot(page, 'boards-kept')
  release()
  for (let index = 0; index < 4; index += 1) await expect(tiles(page).nth(index)).toHaveAttribute('data-status', 'done', { timeout: 60_000 })
  await page.unroute(isRun, holdRun)

  // The demo backend goes away: opened again, the board says it is offline and keeps every tile's kept result.
  await host.stopDemoBackend()
  await page.getByTestId('rail').locator('[data-section="alerts"]').click()
  await page.getByTestId('rail').getByText('Boards', { exact: true }).click()
  await expect(page.getByTestId('board-offline')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('board-offline')).toContainText('Offline')
  for (let index = 0; index < 4; index += 1) await expect(tiles(page).nth(index).getByTestId('tile-as-of')).toContainText('as of')
  await expect(page.getByTestId('tile-number')).toBeVisible()
  await expect(page.getByTestId('tile-error').first()).toHaveText('Not refreshed: offline.')
  await screenshot(page, 'boards-offline')

  // Delete with Undo.
  await page.getByTestId('board-row-Morning').getByTestId('board-delete').click()
  await expect(page.getByTestId('board-row-Morning')).toHaveCount(0)
  await page.getByTestId('board-undo-delete').click()
  await expect(page.getByTestId('board-row-Morning')).toBeVisible()
})
