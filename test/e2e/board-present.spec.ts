import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, screenshot, test } from './fixtures'
import { legacyPresetFile } from './preset-files'
import { pinTheme } from './screens'
import { chooseOption } from './select'

/**
 * A board as it is looked at: its single number as large as its tile allows (it grows when the
 * tile does), and presented, its tiles taking the whole window, the table and the number with them.
 */

const tiles = (page: Page) => page.locator('[data-test^="board-tile-"]')
const fontSize = (locator: Locator) => locator.evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize))

test('the single number grows with its tile, and a presented board fills the window', async ({ page, host }) => {
  test.setTimeout(180_000)
  const folder = path.join(host.userDataDir, 'presets')
  await fs.mkdir(folder, { recursive: true })
  await fs.writeFile(path.join(folder, 'by-country.json'), JSON.stringify(legacyPresetFile('Supply by country', ['country'], 'line')))
  await fs.writeFile(path.join(folder, 'total.json'), JSON.stringify(legacyPresetFile('Supply total', [], 'line')))
  await page.goto(host.url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await page.getByTestId('rail').getByText('Boards', { exact: true }).click()
  await page.getByTestId('board-new').click()
  await page.getByTestId('name-input').locator('input').fill('On the wall')
  await page.getByTestId('name-confirm').click()
  for (const [preset, view] of [
    ['Supply by country', 'Series table'],
    ['Supply total', 'Single number'],
  ] as const) {
    await chooseOption(page, page.getByTestId('board-add-preset'), preset, true)
    await chooseOption(page, page.getByTestId('board-add-view'), view)
    await page.getByTestId('board-add-tile').click()
  }
  await expect(tiles(page)).toHaveCount(2)
  for (let index = 0; index < 2; index += 1) await expect(tiles(page).nth(index)).toHaveAttribute('data-status', 'done', { timeout: 60_000 })

  // The number's tile made small, then large: the number follows.
  const numberTile = tiles(page).filter({ hasText: 'Supply total' })
  const value = numberTile.getByTestId('tile-number').locator('span').first()
  await expect(value).not.toHaveText(/\.00$/)
  await numberTile.focus()
  for (let step = 0; step < 3; step += 1) await page.keyboard.press('Shift+ArrowLeft')
  await page.keyboard.press('Shift+ArrowUp')
  await expect(numberTile).toHaveAttribute('aria-label', /3 wide, 3 high/)
  const small = await fontSize(value)
  for (let step = 0; step < 3; step += 1) await page.keyboard.press('Shift+ArrowRight')
  for (let step = 0; step < 2; step += 1) await page.keyboard.press('Shift+ArrowDown')
  await expect(numberTile).toHaveAttribute('aria-label', /6 wide, 5 high/)
  await expect.poll(() => fontSize(value)).toBeGreaterThan(small * 1.5)
  // Still on one line, inside its tile.
  const fits = await value.evaluate((element) => element.scrollWidth <= (element.parentElement?.clientWidth ?? 0) + 1)
  expect(fits).toBe(true)

  // Presented: the tiles' rows stretch to the bottom of the window.
  await page.getByTestId('board-present').click()
  await expect(page.getByTestId('board-present-bar')).toBeVisible()
  const measure = () =>
    page.evaluate(() => {
      const boxes = [...document.querySelectorAll('[data-test^="board-tile-"]')].map((tile) => tile.getBoundingClientRect())
      return {
        bottom: Math.max(...boxes.map((box) => box.bottom)),
        right: Math.max(...boxes.map((box) => box.right)),
        height: window.innerHeight,
        width: window.innerWidth,
      }
    })
  // The tiles grow to the window once presenting has laid them out again: wait for that.
  await expect
    .poll(
      async () => {
        const box = await measure()
        return box.bottom > box.height - 40
      },
      { timeout: 15_000 },
    )
    .toBe(true)
  const filled = await measure()
  expect(filled.bottom).toBeGreaterThan(filled.height - 40)
  expect(filled.bottom).toBeLessThanOrEqual(filled.height)
  expect(filled.right).toBeGreaterThan(filled.width - 40)
  // The page behind it does not scroll: the board is the whole window.
  const scrolls = await page.getByTestId('board-canvas').evaluate((canvas) => canvas.scrollHeight > canvas.clientHeight + 1)
  expect(scrolls).toBe(false)
  await screenshot(page, 'boards-present-light')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('board-present-bar')).toHaveCount(0)
  await screenshot(page, 'boards-number-light')

  await pinTheme(page, 'dark')
  await page.getByTestId('rail').getByText('Boards', { exact: true }).click()
  await page.getByTestId('board-row-On the wall').getByTestId('board-open').click()
  await expect(tiles(page)).toHaveCount(2)
  await screenshot(page, 'boards-number-dark')
  await page.getByTestId('board-present').click()
  await expect(page.getByTestId('board-present-bar')).toBeVisible()
  await screenshot(page, 'boards-present-dark')
})
