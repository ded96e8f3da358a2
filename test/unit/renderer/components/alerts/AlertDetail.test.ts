// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NMessageProvider } from 'naive-ui'
import type { FiredAlertView } from '@contract'
import AlertDetail from '../../../../../renderer/src/components/alerts/AlertDetail.vue'
import { usePresetsStore } from '../../../../../renderer/src/stores/presets'

/** Issue 39, item 7: one alert's view says it as a sentence, names its rule, explains "data as of", and links to its line. */
const alert: FiredAlertView = {
  id: 'a1',
  preset: 'Publishers — daily impressions',
  rule: 'volume',
  series: '7 — Northwind',
  bucket: '2026-11-23',
  value: 11_489,
  baseline: 24_976,
  changePct: -54,
  z: -27,
  metric: 'impressions',
  direction: 'either',
  firedAt: '2026-11-26T10:00:00.000Z',
  dataAsOf: '2026-11-26T06:00:00.000Z',
  state: 'new',
  snoozedUntil: null,
}
const series = { key: 'impressions|7', label: alert.series, role: 'line', values: [1], baseline: [1], low: [1], high: [1], fired: [true], firedCount: 1 }

describe('an alert’s view', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    const get = () => Promise.resolve({ ok: true, value: { alert, granularity: 'granularity_day', categories: ['2026-11-23'], series, firedIndex: 0 } })
    const rule = { id: 'volume', metric: 'impressions', direction: 'either', minChangePct: 40, minZ: 3, minBaseline: 20_000, weeks: 4 }
    const rules = () => Promise.resolve({ ok: true, value: { preset: alert.preset, rules: [rule], savedAt: null } })
    Object.defineProperty(window, 'api', { value: { alerts: { get, rules } }, configurable: true })
  })

  it('reads as a sentence with the rule by its name and what data as of means, and opens its line in Reports', async () => {
    const wrapper = mount(defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(AlertDetail, { id: 'a1' }) }) }), {
      attachTo: document.body,
      global: { stubs: { AlertChart: true } },
    })
    await flushPromises()
    expect(wrapper.get('[data-test="alert-view-sentence"]').text()).toBe('Impressions fell 54% below the usual Monday (24,976)')
    // The rule by what it watches, not its internal id "volume".
    expect(wrapper.get('[data-test="alert-view-rule"]').text()).toMatch(
      /^Fires on a change either way of 40% or more in impressions against the usual weekday of the last 4 weeks, when the usual is at least 20,000\./,
    )
    expect(wrapper.text()).not.toContain('volume')
    expect(wrapper.get('.unusual').attributes('title')).toMatch(/^Robust z-score −27\.0/)
    expect(wrapper.get('[data-test="alert-data-as-of"]').text()).toMatch(/^Data as of .+\. The platform reports with a delay/)
    await wrapper.get('[data-test="alert-view-open-line"]').trigger('click')
    expect(usePresetsStore().takePicked()).toEqual({ name: alert.preset, line: alert.series })
    wrapper.unmount()
  })
})
