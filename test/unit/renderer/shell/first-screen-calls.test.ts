// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NDialogProvider, NMessageProvider } from 'naive-ui'
import AppShell from '../../../../renderer/src/components/AppShell.vue'

/**
 * What the first screen waits for (the startup bench): the app's facts, the connections and the
 * restored workspace, asked for together and first; the rail's badges and the export jobs' list
 * only once that screen is shown. Before, the badges' three calls went first and the web host
 * answered them ahead of the first screen's, and the workspace was asked for only after the rest.
 */

/** Answers of the calls the shell makes at start; anything else answers an empty list. */
const answers: Record<string, unknown> = {
  'app.info': {
    version: '1.0.0',
    platform: 'linux',
    keychainAvailable: true,
    capabilities: { nativeSaveDialog: true },
    notices: [],
    logLevel: 'info',
    theme: 'system',
  },
  'profiles.list': [],
  'workspace.state': { activeProfileId: null },
  'exports.list': { jobs: [] },
  'schedules.list': { schedules: [], failures: 0 },
  'alerts.fired': { alerts: [], total: 0 },
  'presets.list': { presets: [], refused: [] },
}

let calls: string[] = []

/** A window.api that records each call by name and answers it; `on…` subscriptions return their unsubscribe. */
function recordingApi(): unknown {
  return new Proxy(
    {},
    {
      get: (_target, group: string) =>
        group.startsWith('on')
          ? () => () => undefined
          : new Proxy(
              {},
              {
                get: (_inner, method: string) => () => {
                  calls.push(`${group}.${method}`)
                  return Promise.resolve({ ok: true, value: answers[`${group}.${method}`] ?? [] })
                },
              },
            ),
    },
  )
}

beforeEach(() => {
  calls = []
  setActivePinia(createPinia())
  Object.defineProperty(window, 'api', { value: recordingApi(), configurable: true })
  // The idle preload of the other sections is not what this test follows: idle never comes
  // (happy-dom has no idle callbacks; removed again after the test).
  Object.defineProperty(window, 'requestIdleCallback', { value: () => 1, configurable: true })
  Object.defineProperty(window, 'cancelIdleCallback', { value: () => undefined, configurable: true })
})
afterEach(() => {
  for (const name of ['api', 'requestIdleCallback', 'cancelIdleCallback']) Reflect.deleteProperty(window, name)
  document.body.innerHTML = ''
})

describe("the shell's start", () => {
  it('asks for what the first screen shows first, together, and for the rest once it is shown', async () => {
    const wrapper = mount(
      defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(NDialogProvider, null, { default: () => h(AppShell) }) }) }),
      { attachTo: document.body },
    )
    // The three go out before any of them is answered.
    expect(calls.slice(0, 3).sort()).toEqual(['app.info', 'profiles.list', 'workspace.state'])
    expect(calls).not.toContain('exports.list')
    expect(calls).not.toContain('alerts.fired')
    await flushPromises()
    // The welcome screen's code is its own chunk, loaded (and here transformed) on first use.
    await vi.waitFor(() => expect(wrapper.find('[data-test="welcome"]').exists()).toBe(true), { timeout: 10_000 })
    // Once the first screen had its frame, the badges and the jobs' list are read.
    await vi.waitFor(() => expect(calls).toEqual(expect.arrayContaining(['exports.list', 'schedules.list', 'alerts.fired'])))
    const firstOfTheRest = Math.min(...['exports.list', 'schedules.list', 'alerts.fired'].map((name) => calls.indexOf(name)))
    expect(firstOfTheRest).toBeGreaterThan(calls.indexOf('workspace.state'))
    wrapper.unmount()
  })
})
