import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'

/**
 * Layout at a laptop's size (issue 39, item 15): dialogs keep their buttons on a 720 px high
 * screen, the Entities toolbar keeps its controls in place from kind to kind, and a plan's
 * Changes are not cut beside an Outcome with nothing in it yet.
 */
const rail = (page: Page, label: string) =>
  page
    .getByTestId('rail')
    .locator('[data-section]')
    .filter({ hasText: new RegExp(`^${label}`) })

async function openDemo(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await rail(page, 'Entities').click()
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('entity-row').first()).toBeVisible({ timeout: 30_000 })
}

/** An import as the new user's walk made it: a column no field matches (a banner above the rows), an update, and three rows with errors. */
async function writeWalkImport(userDataDir: string): Promise<void> {
  await fs.mkdir(path.join(userDataDir, 'imports'), { recursive: true })
  await fs.writeFile(
    path.join(userDataDir, 'imports', 'brands-walk.csv'),
    [
      'external_id,name,is_private_marketplace_allowed,advertiser_domains,favourite_colour',
      'BRD-000004,Humongous Electronics Global,true,humongous-electronics.example;shop.humongous.example,blue',
      ',New Brand,true,newbrand.example,red',
      ',=HYPERLINK("x"),true,x.example,green',
      ',Bad,true,not a domain,grey',
      '',
    ].join('\n'),
  )
}

/** Whole inside the window, and what the window shows at its centre is the button itself (not a mask, not another layer). */
async function expectOnScreen(page: Page, button: Locator): Promise<void> {
  await expect(button).toBeVisible()
  const box = await button.boundingBox()
  const viewport = page.viewportSize()
  if (box === null || viewport === null) throw new Error('The button or the window has no size.')
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height)
  const hit = await button.evaluate(
    (element, [x, y]) => {
      const top = document.elementFromPoint(x as number, y as number)
      return top !== null && element.contains(top)
    },
    [box.x + box.width / 2, box.y + box.height / 2],
  )
  expect(hit).toBe(true)
}

test.describe('at 1280 × 720', () => {
  test.use({ viewport: { width: 1280, height: 720 } })

  test('the Import, Bulk edit, Schedule, New board and Export dialogs show their buttons inside the window', async ({ page, host }) => {
    await openDemo(page, host.url)
    await page.getByTestId('kind-picker').getByText('Brands', { exact: true }).click()
    await expect(page.getByTestId('row-count')).toHaveText('150 brands')
    await writeWalkImport(host.userDataDir)

    await page.getByTestId('import-open').click()
    const plan = page.getByTestId('plan-view')
    await expect(plan.getByTestId('plan-problems')).toBeVisible()
    await expect(plan.getByTestId('plan-row').first()).toBeVisible()
    await expectOnScreen(page, plan.getByTestId('plan-apply'))
    await expectOnScreen(page, plan.getByTestId('plan-close'))
    await plan.getByTestId('plan-close').click()
    await expect(plan).toHaveCount(0)

    await page.getByTestId('bulk-edit-open').click()
    const bulk = page.getByTestId('bulk-edit')
    await expectOnScreen(page, bulk.getByTestId('bulk-plan'))
    await expectOnScreen(page, bulk.getByRole('button', { name: 'Cancel' }))
    await bulk.getByRole('button', { name: 'Cancel' }).click()
    await expect(bulk).toHaveCount(0)

    await rail(page, 'Schedules').click()
    await page.getByTestId('schedule-new').click()
    const schedule = page.getByTestId('schedule-editor')
    await expect(schedule.getByTestId('cadence-words')).toBeAttached()
    await expectOnScreen(page, schedule.getByTestId('schedule-save'))
    await expectOnScreen(page, schedule.getByTestId('schedule-cancel'))
    await schedule.getByTestId('schedule-cancel').click()
    await expect(schedule).toHaveCount(0)

    await rail(page, 'Boards').click()
    await page.getByTestId('board-new').click()
    const prompt = page.getByTestId('name-prompt')
    await expectOnScreen(page, prompt.getByTestId('name-confirm'))
    await expectOnScreen(page, prompt.getByRole('button', { name: 'Cancel' }))
    await prompt.getByRole('button', { name: 'Cancel' }).click()
    await expect(prompt).toHaveCount(0)

    await rail(page, 'Reports').click()
    await expect(page.getByTestId('run')).toBeEnabled({ timeout: 30_000 })
    await page.getByTestId('export-open').click()
    const exporting = page.getByTestId('export-dialog')
    await expect(exporting.getByTestId('export-estimate-note')).toBeVisible({ timeout: 20_000 })
    await expectOnScreen(page, exporting.getByTestId('export-start'))
    await expectOnScreen(page, exporting.getByTestId('export-close'))
    await exporting.getByTestId('export-close').click()
    await expect(exporting).toHaveCount(0)
  })

  test("a plan's Changes are not cut beside an Outcome with nothing in it yet", async ({ page, host }) => {
    await openDemo(page, host.url)
    await page.getByTestId('kind-picker').getByText('Brands', { exact: true }).click()
    await expect(page.getByTestId('row-count')).toHaveText('150 brands')
    await writeWalkImport(host.userDataDir)
    await page.getByTestId('import-open').click()
    const rows = page.getByTestId('plan-view').getByTestId('plan-row')
    await expect(rows).toHaveCount(4)
    await expect(rows.first()).toContainText('Humongous Electronics Global')
    const cells = await rows.locator('.detail').evaluateAll((elements) =>
      elements.map((element) => ({
        text: element.textContent,
        width: [element.scrollWidth, element.clientWidth],
        height: [element.scrollHeight, element.clientHeight],
      })),
    )
    for (const cell of cells) {
      expect(cell.width[0], `${cell.text} is cut across`).toBeLessThanOrEqual(cell.width[1] as number)
      expect(cell.height[0], `${cell.text} is cut below`).toBeLessThanOrEqual(cell.height[1] as number)
    }
  })
})

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
])
  test(`the Entities toolbar keeps its controls in place on every kind at ${viewport.width} × ${viewport.height}`, async ({ page, host }) => {
    await page.setViewportSize(viewport)
    await openDemo(page, host.url)
    const controls = ['search', 'refresh', 'export', 'bulk-edit-open', 'import-open', 'new-entity']
    const boxes = async () => Promise.all(controls.map(async (name) => ({ name, box: await page.getByTestId(name).boundingBox() })))
    const counts: Record<string, string> = {
      Publishers: '40 publishers',
      Brands: '150 brands',
      'Ad units': '400 ad units',
      Agencies: '30 agencies',
      Bidders: '25 bidders',
    }
    let first: Awaited<ReturnType<typeof boxes>> | null = null
    for (const [kind, count] of Object.entries(counts)) {
      await page.getByTestId('kind-picker').getByText(kind, { exact: true }).click()
      await expect(page.getByTestId('row-count')).toHaveText(count)
      const now = await boxes()
      if (first === null) first = now
      else expect(now, `the toolbar on ${kind}`).toEqual(first)
    }
  })
