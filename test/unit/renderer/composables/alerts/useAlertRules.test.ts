// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import { flushPromises } from '@vue/test-utils'
import { useAlertRules } from '../../../../../renderer/src/composables/alerts/useAlertRules'
import { checkInWords } from '../../../../../renderer/src/domain/alerts/rules'

/** Issue 39: the rules panel has "Check now", which checks the saved rules and says what it found. */
describe('Check now in the rules panel', () => {
  it('checks the preset’s saved rules on the builder’s connection and says what fired', async () => {
    const firing = { preset: 'P', rule: 'volume', series: 'A', bucket: '2026-11-23', value: 1, baseline: 2, changePct: -50, z: -9 }
    const check = vi.fn(() => Promise.resolve({ ok: true, value: { firings: [firing], dataAsOf: '2026-11-26T06:00:00.000Z', checkedSeries: 41 } }))
    const rules = vi.fn(() => Promise.resolve({ ok: true, value: { preset: 'P', rules: [], savedAt: null } }))
    Object.defineProperty(window, 'api', { value: { alerts: { check, rules }, requests: { cancel: vi.fn() } }, configurable: true })
    const scope = effectScope()
    const alerts = scope.run(() =>
      useAlertRules(
        () => 'P',
        () => 'demo',
      ),
    )!
    await flushPromises()
    const said = await alerts.checkNow()
    expect(check).toHaveBeenCalledWith(expect.objectContaining({ preset: 'P', profileId: 'demo' }))
    expect(said).toBe('Checked 41 lines: 1 new alert fired; it is in Alerts.')
    expect(alerts.checking.value).toBe(false)
    scope.stop()
  })

  it('says when nothing fired', () => {
    expect(checkInWords({ firings: [], checkedSeries: 1 })).toBe('Checked 1 line: nothing unusual, or nothing new since the last check.')
  })
})
