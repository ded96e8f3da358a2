import type { ThemeSetting, ThemeState } from '@contract'
import type { EventHub } from '../events'
import type { SettingsStore } from './settings-store'

/** The OS side of the theme (Electron's nativeTheme); the web host has none. */
export interface SystemTheme {
  /** Makes the app's native parts (and the page's prefers-color-scheme) follow the setting. */
  apply(setting: ThemeSetting): void
  /** Whether the theme in effect is dark: the OS's choice, or the pinned one once applied. */
  prefersDark(): boolean
  /** Called when the OS switches (or `apply` changed what is in effect). Returns the unsubscribe. */
  onChange(listener: () => void): () => void
}

export interface ThemeService {
  state(): Promise<ThemeState>
  /** Saves the setting, applies it and announces the new state (`onThemeChanged`). */
  set(setting: ThemeSetting): Promise<ThemeState>
  /** Applies the saved setting and starts following the OS. */
  start(): Promise<void>
  close(): void
}

/** The theme follows the OS unless the user pinned light or dark; the page hears of every change. */
export function createThemeService({ settings, events, system }: { settings: SettingsStore; events: EventHub; system: SystemTheme | null }): ThemeService {
  let announced: string | null = null
  let unsubscribe: (() => void) | null = null

  async function state(): Promise<ThemeState> {
    const { theme } = await settings.read()
    if (system !== null) return { setting: theme, effective: system.prefersDark() ? 'dark' : 'light' }
    return { setting: theme, effective: theme === 'system' ? null : theme }
  }

  // nativeTheme reports a change of its own source as an OS change too: say each state once.
  async function announce(): Promise<ThemeState> {
    const current = await state()
    const key = `${current.setting}/${current.effective}`
    if (key !== announced) {
      announced = key
      events.emit('onThemeChanged', current)
    }
    return current
  }

  return {
    state,
    async set(setting) {
      await settings.update({ theme: setting })
      system?.apply(setting)
      return announce()
    },
    async start() {
      const current = await state()
      system?.apply(current.setting)
      const applied = await state()
      announced = `${applied.setting}/${applied.effective}`
      unsubscribe = system?.onChange(() => void announce()) ?? null
    },
    close() {
      unsubscribe?.()
      unsubscribe = null
    },
  }
}
