import { expect, screenshot, test } from './fixtures'

test('a new user opens the demo workspace and the connection test shows both APIs ok', async ({ page, host }) => {
  await page.goto(host.url)
  await expect(page.getByTestId('welcome')).toBeVisible()
  await expect(page.getByText('Welcome to AdOps Desk')).toBeVisible()
  await screenshot(page, 'welcome')

  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('welcome')).toHaveCount(0)
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')

  await page.getByTestId('rail').getByText('Connections').click()
  const demoRow = page.locator('[data-test="profile-row"][data-profile-name="Demo workspace"]')
  await expect(demoRow).toContainText('Built in')
  await expect(demoRow).toContainText('In use')
  // The built-in demo cannot be edited or deleted.
  await expect(demoRow.getByTestId('edit')).toHaveCount(0)
  await expect(demoRow.getByTestId('delete')).toHaveCount(0)

  await demoRow.getByTestId('test').click()
  const dialog = page.getByTestId('connection-test')
  await expect(dialog.getByTestId('test-workflow')).toHaveAttribute('data-status', 'success')
  await expect(dialog.getByTestId('test-reporting')).toHaveAttribute('data-status', 'success')
  await expect(dialog.getByTestId('test-workflow')).toContainText(/Answered in \d+ ms/)
  await expect(dialog.getByTestId('test-reporting')).toContainText('signed in until')
  await screenshot(page, 'connection-test-demo')
  await dialog.getByTestId('test-close').click()

  // The choice is remembered: a restart reopens the demo instead of the welcome screen.
  await host.restart()
  await page.goto(host.url)
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await expect(page.getByTestId('welcome')).toHaveCount(0)
})

test('a failing connection test says what went wrong for each API', async ({ page, host }) => {
  await page.goto(host.url)
  await page.getByTestId('add-connection').click()
  await page.getByTestId('field-name').locator('input').fill('Nobody home')
  await page.getByTestId('field-baseUrl').locator('input').fill('http://127.0.0.1:9/workflow/v1')
  await page.getByTestId('field-authUrl').locator('input').fill('http://127.0.0.1:9/auth')
  await page.getByTestId('field-reportUrl').locator('input').fill('http://127.0.0.1:9/report')
  await page.getByTestId('field-serviceId').locator('input').fill('demo')
  await page.getByTestId('auth-token').click()
  await page.getByTestId('field-token').locator('input').fill('some-token')
  await page.getByTestId('form-save').click()
  const row = page.locator('[data-test="profile-row"][data-profile-name="Nobody home"]')
  await row.getByTestId('test').click()
  const dialog = page.getByTestId('connection-test')
  await expect(dialog.getByTestId('test-workflow')).toHaveAttribute('data-status', 'error', { timeout: 30_000 })
  await expect(dialog.getByTestId('test-workflow')).toContainText('Nothing answers at 127.0.0.1:9')
  await expect(dialog.getByTestId('test-reporting')).toContainText('choose a project and a report')
  await screenshot(page, 'connection-test-failure')
})
