// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { FiredAlertView } from '@contract'
import AlertList from '../../../../../renderer/src/components/alerts/AlertList.vue'
import { useAlertsStore } from '../../../../../renderer/src/stores/alerts'
import { useNavigationStore } from '../../../../../renderer/src/stores/navigation'
import { usePresetsStore } from '../../../../../renderer/src/stores/presets'

/** Issue 39, item 7: the list reads as sentences, most unusual first, each linking to its line in Reports. */
function quietApi(): void {
  const refusal = () => Promise.resolve({ ok: false, error: { code: 'unavailable', message: 'Not in this test.' } })
  const namespace = new Proxy({}, { get: () => refusal })
  const api = new Proxy({}, { get: (_target, key) => (String(key).startsWith('on') ? () => () => undefined : namespace) })
  Object.defineProperty(window, 'api', { value: api, configurable: true })
}

const fired = (id: string, changes: Partial<FiredAlertView>): FiredAlertView => ({
  id,
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
  ...changes,
})

let wrapper: VueWrapper | null = null
describe('the fired alerts list', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    quietApi()
  })
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
  })

  it('says each alert as a sentence, how unusual in a word with the z-score on hover, most unusual first', async () => {
    const store = useAlertsStore()
    // Main keeps them newest first: the mild one fired last.
    store.alerts = [fired('mild', { bucket: '2026-11-25', z: 3.4, changePct: 41, baseline: 1_200, series: '3 — Contoso' }), fired('severe', {})]
    wrapper = mount(AlertList, { attachTo: document.body })
    await flushPromises()
    const sentences = wrapper.findAll('[data-test="alert-sentence"]').map((element) => element.text())
    expect(sentences).toEqual(['Impressions fell 54% below the usual Monday (24,976)', 'Impressions rose 41% above the usual Wednesday (1,200)'])
    const unusual = wrapper.findAll('[data-test="alert-unusual"]')
    expect(unusual.map((element) => element.text())).toEqual(['Extremely unusual', 'Unusual'])
    expect(unusual[0]?.attributes('title')).toMatch(/^Robust z-score −27\.0/)
    expect(wrapper.text()).not.toContain('z -27')
  })

  it('links each alert to its line in Reports', async () => {
    useAlertsStore().alerts = [fired('severe', {})]
    wrapper = mount(AlertList, { attachTo: document.body })
    await flushPromises()
    await wrapper.get('[data-test="alert-open-line"]').trigger('click')
    expect(useNavigationStore().section).toBe('reports')
    expect(usePresetsStore().takePicked()).toEqual({ name: 'Publishers — daily impressions', line: '7 — Northwind' })
  })
})
