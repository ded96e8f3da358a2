import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import type { Api, Draft, Entity } from '@contract'
import { screenshot } from './fixtures'
import { chooseKind, expect, expectRowCount, openEntities, rowById, test } from './entities-fixtures'

function field(page: Page, name: string) {
  return page.getByTestId(`field-${name}`)
}
function form(page: Page) {
  return page.getByTestId('entity-form')
}
async function confirmDialog(page: Page, button: string): Promise<void> {
  await page.locator('.n-dialog').getByRole('button', { name: button, exact: true }).click()
}
/**
 * The mirror's rows, read through the bridge like the app does. They come back as one JSON text:
 * Playwright serialises an object value by value, which for the 100,000-publisher mirror cost
 * seconds of CPU in the page and the runner; a string crosses as it is.
 */
async function mirrorRows(page: Page, profileId: string, kind: string): Promise<Entity[]> {
  const text = await page.evaluate(
    async ({ profileId, kind }) => {
      const result = await (window as unknown as { api: Api }).api.entities.mirror({ profileId, kind })
      if (!result.ok) throw new Error(result.error.message)
      return JSON.stringify(result.value.rows)
    },
    { profileId, kind },
  )
  return JSON.parse(text) as Entity[]
}
/** The drafts main holds on disk for a connection, read through the bridge like the app does after a reload. */
async function savedDrafts(page: Page, profileId: string): Promise<Draft[]> {
  return page.evaluate(async (profileId) => {
    const result = await (window as unknown as { api: Api }).api.drafts.list({ profileId })
    if (!result.ok) throw new Error(result.error.message)
    return result.value
  }, profileId)
}
async function openRow(page: Page, id: number): Promise<void> {
  await rowById(page, id).click()
  await expect(form(page)).toHaveAttribute('data-fresh', 'true')
}

test('brands: create, edit and delete a brand with domains; keyboard; csv export', async ({ page, host, sandbox, bridgeResponses }) => {
  await openEntities(page, host.url, sandbox, { kind: 'Brands' })
  await expectRowCount(page, '150 brands')
  await expect(page.getByTestId('synced-at')).toContainText('Last synced just now')
  await screenshot(page, 'entities-brands-list')

  // Keyboard: a click opens a row and Esc closes it, giving the keys back to the list, where arrows
  // move the selection and Enter opens; Ctrl+N opens a new form, Ctrl+S saves it.
  await rowById(page, 1).click()
  await expect(form(page)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(form(page)).toBeHidden()
  await expect(rowById(page, 1)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('ArrowDown')
  await expect(rowById(page, 2)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(form(page)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(form(page)).toBeHidden()
  await page.keyboard.press('Control+n')
  await expect(page.getByRole('heading', { name: 'New brand' })).toBeVisible()
  await page.keyboard.press('Control+s')
  await expect(field(page, 'name')).toContainText('Name is required')

  // Create, with one refused and two accepted domains.
  await field(page, 'name').locator('input').fill('E2E Trail Runners')
  await field(page, 'is_open_auction_allowed').getByRole('switch').click()
  await page.getByTestId('domain-new').locator('input').fill('http://bad domain')
  await page.getByTestId('domain-add').click()
  await expect(page.getByTestId('domain-add-error')).toBeVisible()
  await page.getByTestId('domain-new').locator('input').fill('trail-runners.example')
  await page.getByTestId('domain-add').click()
  await page.getByTestId('domain-new').locator('input').fill('shop.trail-runners.example')
  await page.getByTestId('domain-new').locator('input').press('Enter')
  await expect(page.getByTestId('domain-1').locator('input')).toHaveValue('shop.trail-runners.example')
  await screenshot(page, 'entities-brand-form-new')
  await page.keyboard.press('Control+s')
  await expect(form(page)).toBeHidden()
  await expect(rowById(page, 151)).toHaveAttribute('aria-selected', 'true')
  await expect(rowById(page, 151)).toContainText('E2E Trail Runners')
  // In view (a fraction of a pixel aside), not a row short of it below the edge: the reveal
  // waits for the table to render the new row, so a click on it lands on it.
  await expect(rowById(page, 151)).toBeInViewport({ ratio: 0.95 })
  await expectRowCount(page, '151 brands')
  expect((await sandbox.request('GET', '/brands/151/')).body).toMatchObject({
    name: 'E2E Trail Runners',
    is_open_auction_allowed: true,
    is_pmp_allowed: false,
    advertiser_domains: ['trail-runners.example', 'shop.trail-runners.example'],
  })

  // Edit: rename, drop a domain.
  await openRow(page, 151)
  await field(page, 'name').locator('input').fill('E2E Trail Runners Co')
  await page.getByTestId('domain-remove-0').click()
  await screenshot(page, 'entities-brand-form-edit')
  await page.getByTestId('form-save').click()
  await expect(form(page)).toBeHidden()
  await expect(rowById(page, 151)).toContainText('E2E Trail Runners Co')
  expect((await sandbox.request('GET', '/brands/151/')).body).toMatchObject({
    name: 'E2E Trail Runners Co',
    advertiser_domains: ['shop.trail-runners.example'],
  })

  // Search, then export what is shown: the web host writes into its exports folder, the page names no path.
  // Typed while the drawer still slides out: the focus (and what is typed) stays in the search.
  const search = page.getByTestId('search').locator('input')
  await search.fill('trail runners')
  await expect(page.locator('.n-drawer')).toBeHidden()
  await expect(search).toBeFocused()
  await expectRowCount(page, '1 of 151')
  await page.getByTestId('export').click()
  await expect(page.getByText('Exported 1 row to brands.csv')).toBeVisible()
  const csv = await fs.readFile(path.join(host.userDataDir, 'exports', 'brands.csv'), 'utf8')
  expect(csv.split(/\r?\n/).filter((line) => line !== '')).toHaveLength(2)
  expect(csv).toContain('E2E Trail Runners Co')
  // No path crossed the bridge, in either direction.
  expect(bridgeResponses.join('\n')).not.toContain(host.userDataDir)

  // Delete asks first.
  await openRow(page, 151)
  await page.getByTestId('form-delete').click()
  await screenshot(page, 'entities-delete-confirm')
  await confirmDialog(page, 'Delete')
  await expect(form(page)).toBeHidden()
  await expect(rowById(page, 151)).toHaveCount(0)
  await expectRowCount(page, '0 of 150')
  await search.fill('')
  await expect(page.locator('.n-drawer')).toBeHidden()
  await expect(search).toBeFocused()
  await expectRowCount(page, '150 brands')
  expect((await sandbox.request('GET', '/brands/151/')).status).toBe(404)
})

test('a click opens a row and its check box only checks it; the drawer links related items and says when it was changed here', async ({
  page,
  host,
  sandbox,
}) => {
  const profileId = await openEntities(page, host.url, sandbox, { kind: 'Publishers' })
  await expectRowCount(page, '40 publishers')
  // The ad units' mirror syncs after the publishers' list shows: wait for it, under load too.
  const unitsOfFirst = async () => (await mirrorRows(page, profileId, 'ad_units')).filter((unit) => unit['publisher'] === 1)
  await expect.poll(async () => (await unitsOfFirst()).length, { timeout: 30_000 }).toBeGreaterThan(0)
  const units = await unitsOfFirst()

  // The check box checks without opening; Space on it unchecks it again.
  const box = rowById(page, 2).getByRole('checkbox')
  await box.click()
  await expect(box).toBeChecked()
  await expect(page.getByTestId('delete-checked')).toHaveText(/Delete \(1\)/)
  await expect(page.locator('.n-drawer')).toBeHidden()
  await box.press('Space')
  await expect(box).not.toBeChecked()
  await expect(page.locator('.n-drawer')).toBeHidden()

  // One click on the name opens the publisher: its ad units are links, and it was never changed from here.
  await rowById(page, 1).getByText('Humongous Kids', { exact: true }).click()
  await expect(form(page)).toHaveAttribute('data-fresh', 'true')
  await expect(page.getByTestId('changed-here')).toHaveText('Not changed here')
  const related = page.getByTestId('related-items')
  await expect(related).toContainText(`Ad units (${units.length})`)
  await expect(related.getByTestId('related-link')).toHaveText(units.slice(0, 12).map((unit) => String(unit['name'])))
  await screenshot(page, 'entities-drawer-related')

  // A save is written to the change log, and the drawer says so when the publisher opens again.
  await field(page, 'name').locator('input').fill('Humongous Kids Club')
  await page.getByTestId('form-save').click()
  await expect(form(page)).toBeHidden()
  await openRow(page, 1)
  await expect(page.getByTestId('changed-here')).toHaveText(/^Changed here .+ — Name$/)

  // A related item's link opens it, on its own tab.
  await related.getByTestId('related-link').first().click()
  await expect(page.getByRole('tab', { name: 'Ad units' })).toHaveAttribute('aria-selected', 'true')
  await expect(field(page, 'name').locator('input')).toHaveValue(String(units[0]?.['name']))
  await expect(page.getByTestId('related-items')).toContainText('Humongous Kids Club')
})

test('at 1280×720 no column header is cut and websites, endpoints and domains show whole where there is room', async ({ page, host }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  // The demo workspace: the data a new user meets first.
  await page.goto(host.url)
  await page.getByTestId('rail').getByText('Entities', { exact: true }).click()
  await page.getByTestId('open-demo').click()
  for (const kind of ['Publishers', 'Brands', 'Ad units', 'Agencies', 'Bidders']) {
    await chooseKind(page, kind)
    await expect(page.getByTestId('row-count')).toHaveText(new RegExp(`^[\\d,]+ ${kind.toLowerCase()}$`))
    const measured = await page.evaluate(() => {
      const table = document.querySelector<HTMLElement>('[data-test="entity-table"]')
      const headers = [...(table?.querySelectorAll<HTMLElement>('[role="columnheader"]') ?? [])]
      // Each header cell, and the title in it that would end in "…" when cut.
      const cut = headers
        .flatMap((cell) => [cell, ...cell.querySelectorAll<HTMLElement>('.title')])
        .filter((element) => element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight)
        .map((element) => element.textContent?.trim() ?? '')
      const scroller = table?.querySelector<HTMLElement>('.scroll-x')
      const width = (title: string): number => headers.find((cell) => cell.textContent?.trim() === title)?.getBoundingClientRect().width ?? 0
      const wholeText = [...(table?.querySelectorAll<HTMLElement>('.type-url, .type-domains') ?? [])].map((cell) => ({
        text: cell.textContent?.trim() ?? '',
        whole: cell.scrollWidth <= cell.clientWidth,
      }))
      return { cut, sideways: (scroller?.scrollWidth ?? 0) - (scroller?.clientWidth ?? 0), name: width('Name'), website: width('Website'), wholeText }
    })
    expect(measured.cut, `${kind}: headers cut`).toEqual([])
    // Every column is on screen: none is cut at the table's right edge.
    expect(measured.sideways, `${kind}: the table scrolls sideways`).toBeLessThanOrEqual(0)
    // Where the text has room (a URL, one domain), it shows whole.
    const roomy = measured.wholeText.filter((cell) => !cell.text.includes(','))
    if (kind === 'Publishers' || kind === 'Brands' || kind === 'Bidders') expect(roomy.length, kind).toBeGreaterThan(0)
    expect(
      roomy.filter((cell) => !cell.whole).map((cell) => cell.text),
      `${kind}: cut`,
    ).toEqual([])
    if (kind === 'Publishers') expect(measured.name).toBeLessThan(measured.website)
  }
  await screenshot(page, 'entities-bidders-1280')
})

test('a 400 from the platform is shown at its field and the form keeps what was typed', async ({ page, host, sandbox }) => {
  await openEntities(page, host.url, sandbox, { kind: 'Publishers' })
  await expectRowCount(page, '40 publishers')
  await page.getByTestId('new-entity').click()
  await field(page, 'name').locator('input').fill('Broken Address Weekly')
  await field(page, 'url').locator('input').fill('not a web address')
  await page.getByTestId('form-save').click()
  await expect(field(page, 'url')).toContainText('Enter a valid URL.')
  await expect(field(page, 'name').locator('input')).toHaveValue('Broken Address Weekly')
  await expect(field(page, 'url').locator('input')).toHaveValue('not a web address')
  await screenshot(page, 'entities-form-400')
  await field(page, 'url').locator('input').fill('https://broken-address.example')
  await page.getByTestId('form-save').click()
  await expect(form(page)).toBeHidden()
  await expect(rowById(page, 41)).toContainText('Broken Address Weekly')

  // Any other kind opens by its path name; the sandbox serves none, and says so.
  await page.getByTestId('other-kind').click()
  await page.getByTestId('other-kind-input').locator('input').fill('Not a kind!')
  await page.getByTestId('other-kind-open').click()
  await expect(page.getByText('Use the lower-case path name')).toBeVisible()
  await page.getByTestId('other-kind-input').locator('input').fill('creatives')
  await screenshot(page, 'entities-other-kind-picker')
  await page.getByTestId('other-kind-open').click()
  await expect(page.getByTestId('kind-picker')).toContainText('Creatives')
  await expect(page.getByTestId('load-error')).toBeVisible()
  await screenshot(page, 'entities-other-kind-error')
})

test('references are names and links; a 406 lists the dependents; bulk delete reports each result', async ({ page, host, sandbox }) => {
  const profileId = await openEntities(page, host.url, sandbox, { kind: 'Ad units' })
  await expectRowCount(page, '400 ad units')
  const publishers = await mirrorRows(page, profileId, 'publishers')
  const units = await mirrorRows(page, profileId, 'ad_units')
  const unit = units[0] as Entity
  const publisher = publishers.find((candidate) => candidate.id === unit['publisher']) as Entity
  await expect(rowById(page, unit.id).getByTestId('ref-publisher')).toHaveText(String(publisher['name']))
  await screenshot(page, 'entities-ad-units')
  await page.emulateMedia({ colorScheme: 'dark' })
  await rowById(page, unit.id).getByRole('gridcell').first().click()
  await screenshot(page, 'entities-ad-units-dark')
  await page.emulateMedia({ colorScheme: 'light' })

  // The link opens the publisher.
  await rowById(page, unit.id).getByTestId('ref-publisher').click()
  await expect(form(page)).toBeVisible()
  await expect(field(page, 'name').locator('input')).toHaveValue(String(publisher['name']))
  await expect(form(page)).toHaveAttribute('data-fresh', 'true')

  // Deleting it is refused (406): its ad units are listed, each a link.
  await page.getByTestId('form-delete').click()
  await confirmDialog(page, 'Delete')
  await expect(page.getByTestId('dependents-alert')).toBeVisible()
  const dependents = units.filter((candidate) => candidate['publisher'] === publisher.id)
  await expect(page.getByTestId('dependents-alert')).toContainText(`Ad units (${dependents.length})`)
  await expect(page.getByTestId('dependent-link').first()).toHaveText(String(dependents[0]?.['name']))
  await screenshot(page, 'entities-delete-406')
  await page.getByTestId('dependent-link').first().click()
  await expect(field(page, 'name').locator('input')).toHaveValue(String(dependents[0]?.['name']))
  await page.getByTestId('form-cancel').click()

  // Bulk delete: one publisher without ad units goes, one with ad units stays.
  const created = await sandbox.request('POST', '/publishers/', { name: 'Lonely Gazette', url: 'https://lonely.example' })
  const lonely = created.body as Entity
  await chooseKind(page, 'Publishers')
  await page.getByTestId('refresh').click()
  await expectRowCount(page, '41 publishers')
  // The selection is kept across searches.
  await page.getByTestId('search').locator('input').fill('Lonely Gazette')
  await rowById(page, lonely.id).getByRole('checkbox').click()
  await page.getByTestId('search').locator('input').fill(String(publisher['name']))
  await rowById(page, publisher.id).getByRole('checkbox').click()
  await page.getByTestId('search').locator('input').fill('')
  await expect(page.getByTestId('delete-checked')).toHaveText(/Delete \(2\)/)
  await page.getByTestId('delete-checked').click()
  await confirmDialog(page, 'Delete 2')
  await expect(page.getByTestId('bulk-summary')).toHaveText('1 deleted, 1 failed')
  await expect(page.getByTestId('bulk-failure')).toContainText(String(publisher['name']))
  await screenshot(page, 'entities-bulk-delete-report')
  await page.getByTestId('bulk-close').click()
  await expectRowCount(page, '40 publishers')
})

test("an edit conflict is resolved both ways: keep mine, take the server's", async ({ page, host, sandbox }) => {
  await openEntities(page, host.url, sandbox, { kind: 'Brands' })
  await expectRowCount(page, '150 brands')
  const server = async (id: number) => (await sandbox.request('GET', `/brands/${id}/`)).body as Entity

  // Keep mine: my name wins, the other user's external id stays.
  await openRow(page, 10)
  await field(page, 'name').locator('input').fill('Mine Ten')
  const ten = await server(10)
  expect((await sandbox.request('PUT', '/brands/10/', { ...ten, name: 'Theirs Ten', external_id: 'THEIRS-10' })).status).toBe(204)
  await page.getByTestId('form-save').click()
  await expect(page.getByTestId('conflict-dialog')).toBeVisible()
  await expect(page.getByTestId('conflict-name')).toContainText('Theirs Ten')
  await expect(page.getByTestId('conflict-name')).toContainText('Mine Ten')
  await screenshot(page, 'entities-conflict')
  await page.getByTestId('conflict-keep-mine').click()
  await expect(form(page)).toBeHidden()
  expect(await server(10)).toMatchObject({ name: 'Mine Ten', external_id: 'THEIRS-10' })
  await expect(rowById(page, 10)).toContainText('Mine Ten')

  // Take the server's: the form shows the server's copy, my edit is gone.
  await openRow(page, 11)
  await field(page, 'name').locator('input').fill('Mine Eleven')
  const eleven = await server(11)
  await sandbox.request('PUT', '/brands/11/', { ...eleven, name: 'Theirs Eleven' })
  await page.getByTestId('form-save').click()
  await page.getByTestId('conflict-take-server').click()
  await expect(page.getByTestId('conflict-dialog')).toBeHidden()
  await expect(field(page, 'name').locator('input')).toHaveValue('Theirs Eleven')
  await expect(rowById(page, 11)).toContainText('Theirs Eleven')
  await page.getByTestId('form-cancel').click()
  expect((await server(11))['name']).toBe('Theirs Eleven')
})

test('the viewer gets a read-only list with the reason', async ({ page, host, sandbox }) => {
  await openEntities(page, host.url, sandbox, { viewer: true, kind: 'Brands' })
  await expectRowCount(page, '150 brands')
  await page.getByTestId('new-entity').click()
  await field(page, 'name').locator('input').fill('Not allowed brand')
  await page.getByTestId('form-save').click()
  await expect(page.getByTestId('form-error')).toContainText('permission')
  await expect(page.getByTestId('readonly-banner')).toBeVisible()
  await expect(field(page, 'name').locator('input')).toHaveValue('Not allowed brand')
  await screenshot(page, 'entities-viewer-refused')
  await page.getByTestId('form-cancel').click()
  await expect(page.getByTestId('new-entity')).toBeDisabled()
  await openRow(page, 3)
  await expect(page.getByTestId('form-locked')).toBeVisible()
  await expect(page.getByTestId('form-save')).toHaveCount(0)
  await screenshot(page, 'entities-viewer-readonly')
})

test('an unsaved draft survives a reload', async ({ page, host, sandbox }) => {
  const profileId = await openEntities(page, host.url, sandbox, { kind: 'Brands' })
  await expectRowCount(page, '150 brands')
  await openRow(page, 12)
  const before = await field(page, 'name').locator('input').inputValue()
  await field(page, 'name').locator('input').fill('Half-typed brand name')
  // The form saves drafts after a pause in typing: reload only once this one is on disk.
  await expect
    .poll(async () => (await savedDrafts(page, profileId)).map((draft) => [draft.kind, draft.key, draft.draft.name]))
    .toContainEqual(['brands', '12', 'Half-typed brand name'])
  await page.reload()
  await page.getByTestId('rail').getByText('Entities', { exact: true }).click()
  await expect(page.getByTestId('drafts-banner')).toBeVisible()
  await screenshot(page, 'entities-drafts-banner')
  await page.getByTestId('draft-open').click()
  await expect(page.getByTestId('draft-restored')).toBeVisible()
  await expect(field(page, 'name').locator('input')).toHaveValue('Half-typed brand name')
  await screenshot(page, 'entities-draft-restored')
  await page.getByTestId('draft-discard').click()
  await expect(field(page, 'name').locator('input')).toHaveValue(before)
  await page.getByTestId('form-cancel').click()
  await expect(page.getByTestId('drafts-banner')).toBeHidden()
})

test('offline: the mirror stays readable, editing is disabled with the reason', async ({ page, host, sandbox }) => {
  await openEntities(page, host.url, sandbox, { kind: 'Brands' })
  await expectRowCount(page, '150 brands')
  await sandbox.stop()
  await page.getByTestId('refresh').click()
  await expect(page.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('offline-banner')).toContainText('Offline: showing the copy from')
  await expectRowCount(page, '150 brands')
  await expect(page.getByTestId('new-entity')).toBeDisabled()
  await page.getByTestId('search').locator('input').fill('outfitters')
  await expectRowCount(page, /^\d+ of 150$/)
  await screenshot(page, 'entities-offline')
})

test('rate limited: the app says it is waiting, and for how long', async ({ page, host, sandbox }) => {
  await openEntities(page, host.url, sandbox, { kind: 'Brands' })
  await expectRowCount(page, '150 brands')
  await sandbox.setFaults({ throttle_per_s: 1 })
  // Five lists fetched at once: well over a budget of one request per second.
  await page.getByTestId('refresh').click()
  await chooseKind(page, 'Publishers')
  await chooseKind(page, 'Ad units')
  await chooseKind(page, 'Bidders')
  await chooseKind(page, 'Agencies')
  await expect(page.getByTestId('throttled-banner')).toContainText(/Waiting \d+ s for the platform \(rate limit\)/)
  await screenshot(page, 'entities-throttled')
  await expect(page.getByTestId('throttled-banner')).toBeHidden({ timeout: 30_000 })
  await expectRowCount(page, /agencies/)
})

test.describe('large scale', () => {
  test.use({ sandboxScale: 'large' })
  test.setTimeout(240_000)

  test('100,000 publishers: streamed in, fewer than 200 row elements, sorted and searched correctly', async ({ page, host, sandbox }) => {
    // Each request takes a little while, so the streaming can be seen: rows shown while pages still arrive.
    await sandbox.setFaults({ latency_ms: 40 })
    const profileId = await openEntities(page, host.url, sandbox)
    await expect(page.getByTestId('sync-progress')).toBeVisible()
    await expect(page.getByTestId('entity-row').first()).toBeVisible()
    await expect(page.getByTestId('sync-progress')).toBeVisible()
    await screenshot(page, 'entities-large-syncing')
    await sandbox.setFaults({ latency_ms: 0 })
    // The whole listing, however long the machine takes: one wait with the test's own bound, no silent second try.
    await expect(page.getByTestId('row-count')).toHaveText('100,040 publishers', { timeout: 180_000 })
    await expect(page.getByTestId('sync-progress')).toBeHidden()
    expect(await page.getByTestId('entity-row').count()).toBeLessThan(200)
    const rows = await mirrorRows(page, profileId, 'publishers')
    expect(rows).toHaveLength(100_040)

    // Sort by name, descending, then compare the first rows with the expected order.
    await page.getByTestId('sort-name').click()
    await page.getByTestId('sort-name').click()
    const expected = rows
      .map((row) => ({ id: String(row.id), key: String(row['name']).toLowerCase() }))
      .map((row, index) => ({ ...row, index }))
      .sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : a.index - b.index))
      .slice(0, 10)
      .map((row) => row.id)
    await expect
      .poll(async () =>
        (await page.getByTestId('entity-row').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-id')))).slice(0, 10),
      )
      .toEqual(expected)
    expect(await page.getByTestId('entity-row').count()).toBeLessThan(200)
    await screenshot(page, 'entities-large-sorted')

    // Search: every field, every word.
    const words = ['herald', '777']
    const matching = rows.filter((row) => {
      const text = `${String(row.id)} ${String(row['name'])} ${String(row['url'])} ${String(row['external_id'])}`.toLowerCase()
      return words.every((word) => text.includes(word))
    })
    await page.getByTestId('search').locator('input').fill(words.join(' '))
    await expectRowCount(page, `${matching.length.toLocaleString('en-US')} of 100,040`)
    expect(await page.getByTestId('entity-row').count()).toBeLessThan(200)
    await screenshot(page, 'entities-large-search')
  })
})
