import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { ThemeSetting, ThemeState } from '@contract'
import { api, unwrap } from '../api/bridge'

export type EffectiveTheme = 'light' | 'dark'

/**
 * The theme the app shows. Main owns the setting (follow the OS or pinned) and, in Electron,
 * knows the OS's choice through `nativeTheme`; where it cannot see the OS (the web host says
 * `effective: null`) the page follows `prefers-color-scheme`, live.
 */
export const useThemeStore = defineStore('theme', () => {
  const setting = ref<ThemeSetting>('system')
  const fromMain = ref<EffectiveTheme | null>(null)
  const query = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null
  const osPrefersDark = ref(query?.matches ?? false)
  query?.addEventListener('change', (event) => {
    osPrefersDark.value = event.matches
  })
  let subscribed = false

  const effective = computed<EffectiveTheme>(() => {
    if (setting.value !== 'system') return setting.value
    return fromMain.value ?? (osPrefersDark.value ? 'dark' : 'light')
  })

  function apply(state: ThemeState): void {
    setting.value = state.setting
    fromMain.value = state.effective
  }

  /** Takes the state `app:info` reported and follows main's changes from then on. */
  function load(state: ThemeState): void {
    apply(state)
    if (subscribed) return
    subscribed = true
    api().onThemeChanged(apply)
  }

  async function set(next: ThemeSetting): Promise<void> {
    apply(await unwrap(api().app.setTheme({ theme: next })))
  }

  /** Pins the other theme than the one shown (the menu's and the palette's toggle). */
  async function toggle(): Promise<void> {
    await set(effective.value === 'dark' ? 'light' : 'dark')
  }

  return { setting, effective, load, set, toggle }
})
