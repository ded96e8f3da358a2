import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { NativeTheme } from 'electron'
import type { ThemeState } from '@contract'
import { createEventHub } from '../../../main/services/events'
import { createNotices } from '../../../main/services/notices'
import { createSettingsStore } from '../../../main/services/workspace/settings-store'
import { createThemeService } from '../../../main/services/workspace/theme'
import { systemThemeOf } from '../../../main/electron/native-theme'
import { FakeNativeTheme } from '../../support/fake-electron'
import { temporaryFolder } from '../../support/services'

describe('settings written before theme and log level existed', () => {
  it('keep what they had and get the defaults, and an unknown value falls back without losing the file', async () => {
    const folder = await temporaryFolder()
    await fs.writeFile(path.join(folder, 'settings.json'), JSON.stringify({ version: 1, activeProfileId: 'p1' }))
    const notices = createNotices()
    expect(await createSettingsStore(folder, notices).read()).toEqual({
      version: 1,
      activeProfileId: 'p1',
      resultCacheMegabytes: 200,
      theme: 'system',
      logLevel: 'info',
      alertLagHours: 4,
      demoAlertsSeeded: false,
    })
    await fs.writeFile(path.join(folder, 'settings.json'), JSON.stringify({ version: 1, activeProfileId: 'p2', theme: 'sepia', logLevel: 'trace' }))
    expect(await createSettingsStore(folder, notices).read()).toEqual({
      version: 1,
      activeProfileId: 'p2',
      resultCacheMegabytes: 200,
      theme: 'system',
      logLevel: 'info',
      alertLagHours: 4,
      demoAlertsSeeded: false,
    })
    expect(notices.list()).toEqual([])
  })
})

async function setUp(system: FakeNativeTheme | null) {
  const folder = await temporaryFolder()
  const settings = createSettingsStore(folder, createNotices())
  const events = createEventHub()
  const announced: ThemeState[] = []
  events.subscribe((event, payload) => {
    if (event === 'onThemeChanged') announced.push(payload as ThemeState)
  })
  const theme = createThemeService({ settings, events, system: system === null ? null : systemThemeOf(system as unknown as NativeTheme) })
  return { folder, settings, theme, announced }
}

describe('the theme', () => {
  it('follows the OS until pinned, and tells the page once per change', async () => {
    const native = new FakeNativeTheme(false)
    const { theme, announced } = await setUp(native)
    await theme.start()
    expect(await theme.state()).toEqual({ setting: 'system', effective: 'light' })
    native.switchOs(true)
    await theme.state()
    expect(announced).toEqual([{ setting: 'system', effective: 'dark' }])
    // Pinning light: nativeTheme reports its own change too, but the page hears of it once.
    expect(await theme.set('light')).toEqual({ setting: 'light', effective: 'light' })
    expect(native.themeSource).toBe('light')
    await theme.state()
    expect(announced).toEqual([
      { setting: 'system', effective: 'dark' },
      { setting: 'light', effective: 'light' },
    ])
    // Pinned: the OS switching back changes nothing.
    native.switchOs(false)
    native.switchOs(true)
    await theme.state()
    expect(announced).toHaveLength(2)
    theme.close()
  })

  it('applies the saved setting at start', async () => {
    const native = new FakeNativeTheme(false)
    const { settings, theme } = await setUp(native)
    await settings.update({ theme: 'dark' })
    await theme.start()
    expect(native.themeSource).toBe('dark')
    expect(await theme.state()).toEqual({ setting: 'dark', effective: 'dark' })
  })

  it('without an OS side (the web host) says what is pinned, and null while following the system', async () => {
    const { theme, announced } = await setUp(null)
    await theme.start()
    expect(await theme.state()).toEqual({ setting: 'system', effective: null })
    expect(await theme.set('dark')).toEqual({ setting: 'dark', effective: 'dark' })
    expect(announced).toEqual([{ setting: 'dark', effective: 'dark' }])
  })
})
