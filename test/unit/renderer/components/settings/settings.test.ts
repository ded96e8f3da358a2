// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick, type Component } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NMessageProvider } from 'naive-ui'
import type { LogLevel, ResultCacheState, ThemeSetting } from '@contract'
import AppearanceSettings from '../../../../../renderer/src/components/settings/AppearanceSettings.vue'
import LogSettings from '../../../../../renderer/src/components/settings/LogSettings.vue'
import ResultCacheSettings from '../../../../../renderer/src/components/settings/ResultCacheSettings.vue'
import { useAppStore } from '../../../../../renderer/src/stores/app'
import { useThemeStore } from '../../../../../renderer/src/stores/theme'

/** A stand-in main that keeps the settings it is told, as main does in settings.json. */
function fakeMain() {
  const saved = {
    theme: 'system' as ThemeSetting,
    logLevel: 'info' as LogLevel,
    cache: { limitMegabytes: 200, usedBytes: 30 * 1024 * 1024, entries: 6 } as ResultCacheState,
  }
  const ok = <T>(value: T) => Promise.resolve({ ok: true as const, value })
  const api = {
    app: {
      setTheme: ({ theme }: { theme: ThemeSetting }) => ok({ setting: (saved.theme = theme), effective: theme === 'system' ? null : theme }),
      setLogLevel: ({ level }: { level: LogLevel }) => ok(((saved.logLevel = level), null)),
      resultCache: () => ok(saved.cache),
      setResultCacheLimit: ({ megabytes }: { megabytes: number }) =>
        ok((saved.cache = { limitMegabytes: megabytes, usedBytes: 9 * 1024 * 1024, entries: megabytes < 30 ? 2 : saved.cache.entries })),
      openLogsFolder: () => ok(null),
    },
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return saved
}

function mountInApp(component: Component) {
  return mount(defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(component) }) }))
}

beforeEach(() => setActivePinia(createPinia()))

describe('the settings', () => {
  it('pin a theme through main and show it', async () => {
    const saved = fakeMain()
    const view = mountInApp(AppearanceSettings)
    await view.get('[data-test="theme-dark"] input').setValue(true)
    await flushPromises()
    expect(saved.theme).toBe('dark')
    expect(useThemeStore().effective).toBe('dark')
    await view.get('[data-test="theme-system"] input').setValue(true)
    await flushPromises()
    expect(saved.theme).toBe('system')
  })

  it('set the log level through main and keep it in the app store', async () => {
    const saved = fakeMain()
    const view = mountInApp(LogSettings)
    expect(view.get('[data-test="log-level-info"] input').element).toHaveProperty('checked', true)
    await view.get('[data-test="log-level-debug"] input').setValue(true)
    await flushPromises()
    expect(saved.logLevel).toBe('debug')
    expect(useAppStore().logLevel).toBe('debug')
    // No file manager in this host: no button that could only fail.
    expect(view.find('[data-test="open-logs-folder"]').exists()).toBe(false)
  })

  it('apply a new offline results limit, showing what the cache takes, and refuse one out of bounds', async () => {
    const saved = fakeMain()
    const view = mountInApp(ResultCacheSettings)
    await flushPromises()
    expect(view.get('[data-test="result-cache-usage"]').text()).toBe('Saved results take 30.0 MB now (6 results).')
    const input = view.get('[data-test="result-cache-limit"] input')
    const apply = view.get('[data-test="result-cache-apply"]')
    expect(apply.attributes('disabled')).toBeDefined()

    await input.setValue('5')
    await nextTick()
    expect(view.get('[role="alert"]').text()).toBe('Choose between 10 and 100,000 MB.')
    expect(apply.attributes('disabled')).toBeDefined()

    await input.setValue('20')
    await nextTick()
    expect(view.find('[role="alert"]').exists()).toBe(false)
    await apply.trigger('click')
    await flushPromises()
    expect(saved.cache.limitMegabytes).toBe(20)
    expect(useAppStore().resultCache).toMatchObject({ limitMegabytes: 20, entries: 2 })
    expect(view.get('[data-test="result-cache-usage"]').text()).toBe('Saved results take 9.0 MB now (2 results).')
  })
})
