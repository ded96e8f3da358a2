import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { expect, screenshot, storedCredentials, test } from './fixtures'

const PASSWORD = 'correct-horse-BATTERY-staple-9'
const TOKEN = 'perm-token-7f3a9c2e-SECRET'

async function fillProfile(page: Page, values: { name: string; base: string; auth: string; report: string; service: string }): Promise<void> {
  await page.getByTestId('field-name').locator('input').fill(values.name)
  await page.getByTestId('field-baseUrl').locator('input').fill(values.base)
  await page.getByTestId('field-authUrl').locator('input').fill(values.auth)
  await page.getByTestId('field-reportUrl').locator('input').fill(values.report)
  await page.getByTestId('field-serviceId').locator('input').fill(values.service)
}

/** The app opens on the welcome screen when no connection is in use; connections live in their own section. */
async function openConnections(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.getByTestId('rail').getByText('Connections').click()
}

function row(page: Page, name: string) {
  return page.locator(`[data-test="profile-row"][data-profile-name="${name}"]`)
}

async function expectNoSecretAnywhere(page: Page, bridgeResponses: string[]): Promise<void> {
  const html = await page.evaluate(() => document.documentElement.outerHTML + document.body.innerText)
  for (const secret of [PASSWORD, TOKEN]) {
    expect(html).not.toContain(secret)
    for (const response of bridgeResponses) expect(response).not.toContain(secret)
  }
}

test('create a password and a token connection, reload, edit, duplicate and delete, never seeing a secret', async ({ page, host, bridgeResponses }) => {
  await openConnections(page, host.url)
  await expect(page.getByText('No connections yet')).toBeVisible()

  await page.getByTestId('new-profile').click()
  await fillProfile(page, {
    name: 'Production EU',
    base: 'https://workflow.example.com/api/v1/',
    auth: 'https://auth.example.com',
    report: 'https://reports.example.com',
    service: '1234',
  })
  await page.getByTestId('field-username').locator('input').fill('ops@example.com')
  await page.getByTestId('field-password').locator('input').fill(PASSWORD)
  await screenshot(page, 'connections-form-new')
  await page.getByTestId('form-save').click()
  await expect(row(page, 'Production EU')).toBeVisible()
  await expect(row(page, 'Production EU')).toContainText('https://workflow.example.com/api/v1')
  await expect(row(page, 'Production EU')).toContainText('In keychain')

  await page.getByTestId('new-profile').click()
  await fillProfile(page, {
    name: 'Staging token',
    base: 'http://127.0.0.1:9/workflow/v1',
    auth: 'http://127.0.0.1:9/auth',
    report: 'http://127.0.0.1:9/report',
    service: 'demo',
  })
  await page.getByTestId('auth-token').click()
  await page.getByTestId('field-token').locator('input').fill(TOKEN)
  await page.getByTestId('form-save').click()
  await expect(row(page, 'Staging token')).toContainText('Permanent token')

  await page.reload()
  await page.getByTestId('rail').getByText('Connections').click()
  await expect(row(page, 'Production EU')).toBeVisible()
  await expect(row(page, 'Staging token')).toBeVisible()
  await screenshot(page, 'connections-list')

  const stored = (await storedCredentials(host.keychainService)).map((entry) => entry.password).sort()
  expect(stored).toEqual([PASSWORD, TOKEN].sort())
  const onDisk = await fs.readFile(path.join(host.userDataDir, 'profiles.json'), 'utf8')
  expect(onDisk).not.toContain(PASSWORD)
  expect(onDisk).not.toContain(TOKEN)

  // Edit: rename, keep the stored secret by leaving the field empty.
  await row(page, 'Production EU').getByTestId('edit').click()
  await expect(page.getByTestId('field-password').locator('input')).toHaveAttribute('placeholder', /system keychain; leave empty to keep it/)
  await page.getByTestId('field-name').locator('input').fill('Production EU (main)')
  await page.getByTestId('form-save').click()
  await expect(row(page, 'Production EU (main)')).toBeVisible()
  await expect(row(page, 'Production EU (main)')).toContainText('In keychain')

  // Duplicate: the copy asks for the secret again.
  await row(page, 'Staging token').getByTestId('duplicate').click()
  await expect(page.getByText('Edit “Staging token (copy)”')).toBeVisible()
  await page.getByTestId('form-save').click()
  await expect(page.getByText('Enter the token')).toBeVisible()
  await page.getByTestId('form-cancel').click()
  await expect(row(page, 'Staging token (copy)')).toContainText('Missing')

  // Delete asks first; cancelling keeps it, confirming removes it and its keychain entry.
  const before = (await storedCredentials(host.keychainService)).length
  await row(page, 'Staging token').getByTestId('delete').click()
  await expect(page.getByText('Delete "Staging token"?')).toBeVisible()
  await screenshot(page, 'connections-delete-confirm')
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
  await expect(row(page, 'Staging token')).toBeVisible()
  await row(page, 'Staging token').getByTestId('delete').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(row(page, 'Staging token')).toHaveCount(0)
  expect((await storedCredentials(host.keychainService)).length).toBe(before - 1)

  await page.reload()
  await page.getByTestId('rail').getByText('Connections').click()
  await expect(row(page, 'Production EU (main)')).toBeVisible()
  await expect(row(page, 'Staging token (copy)')).toBeVisible()
  await expect(row(page, 'Staging token')).toHaveCount(0)
  await expectNoSecretAnywhere(page, bridgeResponses)
  expect(bridgeResponses.length).toBeGreaterThan(5)
})

test('changing an address asks for the password again before the change is saved', async ({ page, host }) => {
  await openConnections(page, host.url)
  await page.getByTestId('new-profile').click()
  await fillProfile(page, {
    name: 'Moving',
    base: 'https://workflow.example.com',
    auth: 'https://auth.example.com',
    report: 'https://reports.example.com',
    service: '1',
  })
  await page.getByTestId('field-username').locator('input').fill('ops@example.com')
  await page.getByTestId('field-password').locator('input').fill(PASSWORD)
  await page.getByTestId('form-save').click()
  await expect(row(page, 'Moving')).toContainText('In keychain')

  await row(page, 'Moving').getByTestId('edit').click()
  const password = page.getByTestId('field-password').locator('input')
  await expect(password).toHaveAttribute('placeholder', /leave empty to keep it/)
  // A retyped trailing slash is the same address: the stored password is still kept.
  await page.getByTestId('field-authUrl').locator('input').fill('https://auth.example.com/')
  await expect(password).toHaveAttribute('placeholder', /leave empty to keep it/)
  await page.getByTestId('field-authUrl').locator('input').fill('https://elsewhere.example.net')
  await expect(password).toHaveAttribute('placeholder', 'Password')
  await page.getByTestId('form-save').click()
  await expect(page.getByText('Enter the password again: the addresses or sign-in changed')).toBeVisible()
  await password.fill('a-new-password-for-elsewhere')
  await page.getByTestId('form-save').click()
  await expect(row(page, 'Moving')).toContainText('In keychain')
  // The row said "In keychain" before this save too, so it does not tell that the save is done
  // (on a loaded machine the keychain was read first and still held the old password): wait for it.
  await expect.poll(async () => (await storedCredentials(host.keychainService)).map((entry) => entry.password)).toEqual(['a-new-password-for-elsewhere'])
})

test('invalid addresses are explained at their fields and nothing typed is lost', async ({ page, host }) => {
  await openConnections(page, host.url)
  await page.getByTestId('new-profile').click()
  await fillProfile(page, { name: 'Broken', base: 'ftp://workflow.example.com', auth: 'https://user:pw@auth.example.com', report: 'reports', service: '1' })
  await page.getByTestId('field-username').locator('input').fill('me')
  await page.getByTestId('field-password').locator('input').fill(PASSWORD)
  await page.getByTestId('form-save').click()
  await expect(page.getByText('Only http:// and https:// addresses are supported')).toBeVisible()
  await expect(page.getByText(/Remove the user name and password from the address/)).toBeVisible()
  await expect(page.getByText(/Not a valid address/)).toBeVisible()
  await screenshot(page, 'connections-form-errors')
  await expect(page.getByTestId('field-name').locator('input')).toHaveValue('Broken')
  await expect(page.getByTestId('field-password').locator('input')).toHaveValue(PASSWORD)
  // Fixing the fields saves it.
  await page.getByTestId('field-baseUrl').locator('input').fill('https://workflow.example.com')
  await page.getByTestId('field-authUrl').locator('input').fill('https://auth.example.com')
  await page.getByTestId('field-reportUrl').locator('input').fill('https://reports.example.com')
  await page.getByTestId('form-save').click()
  await expect(row(page, 'Broken')).toBeVisible()
})

test('a corrupt connections file is moved aside and reported; the app still starts', async ({ page, host }) => {
  await fs.writeFile(path.join(host.userDataDir, 'profiles.json'), '{"version": 1, "profiles": [ oops')
  await host.restart()
  await openConnections(page, host.url)
  const notice = page.getByTestId('notice')
  await expect(notice).toContainText('could not be read')
  await expect(notice).toContainText('profiles.json.corrupt-')
  await expect(page.getByText('No connections yet')).toBeVisible()
  await screenshot(page, 'connections-corrupt-notice')
  const files = await fs.readdir(host.userDataDir)
  const moved = files.find((file) => file.startsWith('profiles.json.corrupt-'))
  expect(moved).toBeDefined()
  expect(await fs.readFile(path.join(host.userDataDir, moved as string), 'utf8')).toContain('oops')
  await notice.locator('.n-alert__close').click()
  await expect(notice).toHaveCount(0)
})
