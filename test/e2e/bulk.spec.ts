import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import type { Api, Entity } from '@contract'
import { screenshot } from './fixtures'
import { expect, openEntities, test, type SandboxProcess } from './entities-fixtures'

async function brandOnPlatform(sandbox: SandboxProcess, id: number | string): Promise<Entity> {
  const answer = await sandbox.request('GET', `/brands/${String(id)}/`)
  expect(answer.status).toBe(200)
  return answer.body as Entity
}
async function mirrorRows(page: Page, profileId: string): Promise<Entity[]> {
  return page.evaluate(async (profileId) => {
    const result = await (window as unknown as { api: Api }).api.entities.mirror({ profileId, kind: 'brands' })
    if (!result.ok) throw new Error(result.error.message)
    return result.value.rows
  }, profileId)
}
async function applyPlan(page: Page, count: string): Promise<void> {
  const plan = page.getByTestId('plan-view')
  await expect(plan.getByTestId('plan-apply')).toHaveText(`Apply ${count}`)
  await plan.getByTestId('plan-apply').click()
  await expect(plan.getByTestId('plan-progress')).toContainText('(finished)', { timeout: 30_000 })
}

test('bulk edit of filtered brands, an import with errors, and a revert of the batch', async ({ page, host, sandbox }) => {
  const profileId = await openEntities(page, host.url, sandbox, { kind: 'Brands' })
  await expect(page.getByTestId('row-count')).toHaveText('150 brands')
  const brands = await mirrorRows(page, profileId)
  const target = brands[0] as Entity
  const name = String(target.name)

  // Bulk edit of what the search shows: add a domain.
  await page.getByTestId('search').locator('input').fill(name)
  const shown = await page.getByTestId('entity-row').count()
  await page.getByTestId('bulk-edit-open').click()
  const dialog = page.getByTestId('bulk-edit')
  await expect(dialog.getByTestId('scope-shown').locator('input')).toBeChecked()
  await dialog.getByTestId('bulk-field').click()
  await page.locator('.n-base-select-option').filter({ hasText: 'Advertiser domains' }).click()
  await dialog.getByTestId('bulk-value').locator('input').fill('bulk-e2e.example.com')
  await dialog.getByTestId('bulk-plan').click()
  const plan = page.getByTestId('plan-view')
  await expect(plan.getByTestId('plan-counts')).toContainText(`${shown} to update`)
  await expect(plan.locator(`[data-test="plan-row"][data-row="1"]`)).toContainText('bulk-e2e.example.com')
  await applyPlan(page, shown === 1 ? '1 change' : `${shown} changes`)
  await expect(plan.locator(`[data-test="plan-row"][data-row="1"] [data-test="plan-row-outcome"]`)).toContainText('applied')
  expect((await brandOnPlatform(sandbox, target.id)).advertiser_domains).toContain('bulk-e2e.example.com')
  await plan.getByTestId('plan-close').click()

  // An import with an error row (never sent) and a row the user leaves out.
  const [first, second, third] = brands.slice(1, 4) as [Entity, Entity, Entity]
  await fs.mkdir(path.join(host.userDataDir, 'imports'), { recursive: true })
  await fs.writeFile(
    path.join(host.userDataDir, 'imports', 'brands.csv'),
    `external_id,name,is_pmp_allowed\n${String(first.external_id)},Imported One,true\n${String(second.external_id)},Imported Two,maybe\n${String(third.external_id)},Left Out,true\n`,
  )
  await page.getByTestId('search').locator('input').fill('')
  await page.getByTestId('import-open').click()
  await expect(plan.getByTestId('plan-counts')).toContainText('1 with errors')
  await expect(plan.locator('[data-test="plan-row"][data-row="3"]')).toContainText('is_pmp_allowed: "maybe" is not true or false')
  await plan.locator('[data-test="plan-row"][data-row="4"] [data-test="plan-row-check"]').click()
  await screenshot(page, 'bulk-import-plan')
  await applyPlan(page, '1 change')
  expect((await brandOnPlatform(sandbox, first.id)).name).toBe('Imported One')
  expect((await brandOnPlatform(sandbox, second.id)).name).toBe(second.name)
  expect((await brandOnPlatform(sandbox, third.id)).name).toBe(third.name)
  await plan.getByTestId('plan-close').click()

  // The change log shows both batches; reverting the bulk edit's batch takes the domain away again.
  await page.getByTestId('rail').getByText('Change log', { exact: true }).click()
  await expect(page.getByTestId('change-row').first()).toBeVisible()
  await page.getByTestId('changes-search').locator('input').fill('bulk-e2e.example.com')
  await expect(page.getByTestId('changes-count')).toHaveText(`${shown} ${shown === 1 ? 'change' : 'changes'}, newest first`)
  await screenshot(page, 'bulk-change-log')
  await page.getByTestId('revert-batch').first().click()
  await expect(plan.getByTestId('plan-counts')).toContainText(`${shown} to update`)
  await applyPlan(page, shown === 1 ? '1 change' : `${shown} changes`)
  expect((await brandOnPlatform(sandbox, target.id)).advertiser_domains).toEqual(target.advertiser_domains ?? [])
})
