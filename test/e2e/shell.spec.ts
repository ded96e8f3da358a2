import type { Locator, Page } from '@playwright/test'
import type { Api } from '@contract'
import { expect, screenshot, test } from './fixtures'

/**
 * The keyboard side of the shell through the web host, which has no application menu, so the
 * page binds the menu's accelerators itself: the command palette, the shortcuts overlay, the
 * section keys and Ctrl+Enter, all on the built-in demo workspace.
 */

async function openDemo(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.getByTestId('open-demo').click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await expect(page.getByTestId('entities-view')).toBeVisible()
}

const palette = (page: Page): Locator => page.getByTestId('command-palette')

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k')
  await expect(palette(page)).toBeVisible()
  await expect(page.getByTestId('palette-input')).toBeFocused()
}

/** Types into the palette and checks which entry the arrows stand on (the one Enter runs). */
async function pick(page: Page, text: string, entry: string): Promise<void> {
  await page.getByTestId('palette-input').fill(text)
  const active = palette(page).locator('[role="option"][aria-selected="true"]')
  await expect(active).toHaveAttribute('data-entry', entry)
  // The combobox names the active option, for screen readers.
  const activeId = await active.getAttribute('id')
  await expect(page.getByTestId('palette-input')).toHaveAttribute('aria-activedescendant', activeId ?? '')
}

/** Whether the body is painted dark (Naive UI's global style paints it with the theme). */
async function bodyIsDark(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const [red = 255, green = 255, blue = 255] = (getComputedStyle(document.body).backgroundColor.match(/\d+/g) ?? []).map(Number)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue < 80
  })
}

/** Tab and Shift+Tab several times: focus must stay inside the dialog. */
async function expectFocusTrapped(page: Page, dialog: Locator): Promise<void> {
  for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key)
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  }
}

test('the command palette goes to sections, opens presets, switches connections and toggles the theme', async ({ page, host }) => {
  test.setTimeout(120_000)
  await openDemo(page, host.url)

  // Focus goes back where it was when the palette closes.
  await page.getByTestId('entity-table').focus()
  await openPalette(page)
  await expect(palette(page)).toHaveAttribute('role', 'dialog')
  await expect(page.getByTestId('palette-input')).toHaveAttribute('role', 'combobox')
  await expect(page.getByTestId('palette-list')).toHaveAttribute('role', 'listbox')
  await expect(palette(page).getByRole('option').first()).toHaveAttribute('aria-selected', 'true')
  await screenshot(page, 'palette-light')
  await expectFocusTrapped(page, palette(page))
  await page.keyboard.press('Escape')
  await expect(palette(page)).toHaveCount(0)
  await expect(page.getByTestId('entity-table')).toBeFocused()

  // Fuzzy: scattered letters find the section, highlighted; Enter goes there.
  await openPalette(page)
  await pick(page, 'rprts', 'section:reports')
  await expect(palette(page).locator('[data-entry="section:reports"] mark')).toHaveText(['R', 'p', 'rts'])
  await screenshot(page, 'palette-light-fuzzy')
  await page.keyboard.press('Enter')
  await expect(palette(page)).toHaveCount(0)
  await expect(page.getByTestId('builder')).toBeVisible()

  // Save a preset, leave Reports, and open the preset again from the palette.
  await page.getByTestId('preset-save-as').click()
  await page.getByTestId('name-input').locator('input').fill('Weekly supply')
  await page.getByTestId('name-confirm').click()
  await expect(page.getByTestId('preset-current')).toContainText('Weekly supply')
  await page.getByTestId('rail').getByText('Connections', { exact: true }).click()
  await expect(page.getByTestId('builder')).toHaveCount(0)
  await openPalette(page)
  await pick(page, 'weekly', 'preset:Weekly supply')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('preset-current')).toContainText('Weekly supply')

  // Switch Connection… (Ctrl+Shift+C) lists only connections; the arrows and Enter choose one.
  await page.evaluate(async () => {
    const api = (window as unknown as { api: Api }).api
    const created = await api.profiles.create({
      name: 'Nobody home',
      baseUrl: 'http://127.0.0.1:9/workflow/v1',
      authUrl: 'http://127.0.0.1:9/auth',
      reportUrl: 'http://127.0.0.1:9/report',
      serviceId: 'demo',
      auth: { method: 'token', token: 'some-token' },
    })
    if (!created.ok) throw new Error(created.error.message)
  })
  await page.reload()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')
  await page.keyboard.press('Control+Shift+C')
  await expect(palette(page)).toBeVisible()
  await expect(palette(page).getByRole('option')).toHaveCount(2)
  await expect(palette(page).getByRole('option').first()).toContainText('Demo workspace')
  await expect(palette(page).getByRole('option').first()).toContainText('active')
  await page.keyboard.press('ArrowDown')
  await expect(palette(page).locator('[role="option"][aria-selected="true"]')).toHaveAttribute('data-entry', /^connection:/)
  await expect(palette(page).locator('[role="option"][aria-selected="true"]')).toContainText('Nobody home')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('workspace-switcher')).toContainText('Nobody home')
  // And back with the mouse, from the whole palette.
  await openPalette(page)
  await page.getByTestId('palette-input').fill('demo wor')
  await palette(page).locator('[data-entry^="connection:"]', { hasText: 'Demo workspace' }).click()
  await expect(page.getByTestId('workspace-switcher')).toContainText('Demo workspace')

  // Toggle the theme from the palette: the page itself goes dark, and back.
  expect(await bodyIsDark(page)).toBe(false)
  await openPalette(page)
  await pick(page, 'dark theme', 'command:toggleTheme')
  await expect(palette(page).locator('[data-entry="command:toggleTheme"] kbd')).toHaveText('Ctrl+Shift+L')
  await page.keyboard.press('Enter')
  await expect.poll(() => bodyIsDark(page)).toBe(true)
  // Recently used first: with nothing typed, the theme toggle leads.
  await openPalette(page)
  await expect(palette(page).getByRole('option').first()).toHaveAttribute('data-entry', 'command:toggleTheme')
  await screenshot(page, 'palette-dark')
  await page.getByTestId('palette-input').fill('rprts')
  await screenshot(page, 'palette-dark-fuzzy')
  await page.keyboard.press('Control+k')
  await expect(palette(page)).toHaveCount(0)
  await page.keyboard.press('Control+Shift+L')
  await expect.poll(() => bodyIsDark(page)).toBe(false)
})

test('the shortcuts overlay lists the keys, and the keys work where the page binds them', async ({ page, host }) => {
  test.setTimeout(120_000)
  await openDemo(page, host.url)

  // `?` outside a text field opens the overlay; in the search box it is only typed.
  const overlay = page.getByTestId('shortcuts-overlay')
  await page.getByTestId('search').locator('input').focus()
  await page.keyboard.press('?')
  await expect(page.getByTestId('search').locator('input')).toHaveValue('?')
  await expect(overlay).toHaveCount(0)
  await page.getByTestId('search').locator('input').fill('')
  await page.getByTestId('entity-table').focus()
  await page.keyboard.press('?')
  await expect(overlay).toBeVisible()
  await expect(overlay).toHaveAttribute('role', 'dialog')
  const row = (label: string) => overlay.getByTestId('shortcut-row').filter({ hasText: label })
  await expect(row('Command Palette…')).toContainText('Ctrl+K')
  await expect(row('Run Report')).toContainText('Ctrl+Enter')
  await expect(row('Go to Reports')).toContainText('Ctrl+2')
  await expect(row('Keyboard Shortcuts')).toContainText('F1')
  await expect(row('Close a dialog')).toContainText('Esc')
  await screenshot(page, 'shortcuts-light')
  await expectFocusTrapped(page, overlay)
  await page.keyboard.press('Escape')
  await expect(overlay).toHaveCount(0)
  await expect(page.getByTestId('entity-table')).toBeFocused()
  await page.keyboard.press('F1')
  await expect(overlay).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(overlay).toHaveCount(0)

  // The section keys follow the rail's order.
  await page.keyboard.press('Control+2')
  await expect(page.getByTestId('reports-view')).toBeVisible()
  await page.keyboard.press('Control+3')
  await expect(page.getByTestId('rail').locator('.n-menu-item-content--selected')).toContainText('Connections')
  await page.keyboard.press('Control+1')
  await expect(page.getByTestId('entities-view')).toBeVisible()
  // Ctrl+N is a command here (New Entity); Ctrl+S saves the open form.
  await page.keyboard.press('Control+n')
  await expect(page.locator('.n-drawer')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.locator('.n-drawer')).toBeHidden()

  // Ctrl+Enter runs the report exactly once.
  await page.keyboard.press('Control+2')
  await expect(page.getByTestId('builder')).toBeVisible()
  let runs = 0
  await page.route(
    (url) => url.pathname.endsWith('/__host/invoke/reports%3Arun'),
    async (route) => {
      runs++
      await route.continue()
    },
  )
  await page.getByTestId('builder').click({ position: { x: 4, y: 4 } })
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('series-row').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('run')).toBeEnabled()
  expect(runs).toBe(1)

  // Dark: the overlay and the palette follow the theme.
  await page.keyboard.press('Control+Shift+L')
  await expect.poll(() => bodyIsDark(page)).toBe(true)
  await page.getByTestId('reports-view').click({ position: { x: 4, y: 4 } })
  await page.keyboard.press('?')
  await expect(overlay).toBeVisible()
  await screenshot(page, 'shortcuts-dark')
  await page.keyboard.press('Escape')
  await expect(overlay).toHaveCount(0)
})

test('Ctrl+E exports the current report from Reports, and from any other section by going there', async ({ page, host }) => {
  test.setTimeout(120_000)
  await openDemo(page, host.url)
  const dialog = page.getByTestId('export-dialog')

  // The builder's report, changed from its default so "current" means something: split by device type.
  await page.keyboard.press('Control+2')
  await expect(page.getByTestId('builder')).toBeVisible()
  await expect(page.getByTestId('report-picker')).toContainText(' / ')
  const report = ((await page.getByTestId('report-picker').textContent()) ?? '').trim().replace(' / ', '/')
  await page.getByTestId('breakdown').click()
  await page.keyboard.type('Device type')
  await page.locator('.n-base-select-option:visible', { hasText: 'Device type' }).first().click()
  await page.keyboard.press('Escape')

  /** The dialog is open for that report, its keys the builder's breakdown; then closed again. */
  async function expectDialogForCurrentReport(): Promise<void> {
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText(`Export ${report}`)
    await expect(dialog.getByTestId('export-keys-select')).toContainText('Device type')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  }

  // On Reports: Ctrl+E opens it in place.
  await page.getByTestId('builder').click({ position: { x: 4, y: 4 } })
  await page.keyboard.press('Control+e')
  await expectDialogForCurrentReport()

  // From Entities and from Connections: Ctrl+E goes to Reports and opens it there.
  for (const [key, view] of [
    ['Control+1', 'Entities'],
    ['Control+3', 'Connections'],
  ] as const) {
    await page.keyboard.press(key)
    await expect(page.getByTestId('rail').locator('.n-menu-item-content--selected')).toContainText(view)
    await page.keyboard.press('Control+e')
    await expect(page.getByTestId('reports-view')).toBeVisible()
    await expectDialogForCurrentReport()
  }
})
