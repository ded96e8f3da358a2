import { ref, watch } from 'vue'
import type { AlertRule, BacktestView } from '@contract'
import { api, errorMessage, unwrap } from '../../api/bridge'
import { newRequestId } from '../../lib/requestId'
import { checkInWords } from '../../domain/alerts/rules'

/**
 * A preset's alert rules in the builder: what is saved, the rule being edited, and its backtest
 * (the newest one wins; an older one still out is cancelled). Saving replaces the preset's rules.
 */
export function useAlertRules(preset: () => string | null, profileId: () => string | null) {
  const rules = ref<AlertRule[]>([])
  const loadError = ref<string | null>(null)
  const backtest = ref<BacktestView | null>(null)
  const backtestError = ref<string | null>(null)
  const backtesting = ref(false)
  const checking = ref(false)
  let pending: string | null = null

  async function load(name: string): Promise<void> {
    try {
      rules.value = (await unwrap(api().alerts.rules({ preset: name }))).rules
      loadError.value = null
    } catch (failure) {
      rules.value = []
      loadError.value = errorMessage(failure)
    }
  }
  watch(
    preset,
    (name) => {
      clearBacktest()
      if (name !== null) void load(name)
    },
    { immediate: true },
  )

  function clearBacktest(): void {
    if (pending) void api().requests.cancel({ requestId: pending })
    pending = null
    backtest.value = null
    backtestError.value = null
    backtesting.value = false
  }

  async function runBacktest(rule: AlertRule): Promise<void> {
    const name = preset()
    const profile = profileId()
    if (name === null || profile === null) return
    clearBacktest()
    const requestId = newRequestId('backtest')
    pending = requestId
    backtesting.value = true
    try {
      const answer = await unwrap(api().alerts.backtest({ preset: name, profileId: profile, rule, requestId }))
      if (pending === requestId) backtest.value = answer
    } catch (failure) {
      if (pending === requestId) backtestError.value = errorMessage(failure)
    } finally {
      if (pending === requestId) {
        pending = null
        backtesting.value = false
      }
    }
  }

  /** Saves the preset's whole list with `rule` put in place of the one it edits (or added). */
  async function save(rule: AlertRule, replacing: string | null): Promise<void> {
    const name = preset()
    if (name === null) return
    const next = replacing === null ? [...rules.value, rule] : rules.value.map((existing) => (existing.id === replacing ? rule : existing))
    rules.value = (await unwrap(api().alerts.saveRules({ preset: name, rules: next }))).rules
  }

  async function remove(id: string): Promise<void> {
    const name = preset()
    if (name === null) return
    rules.value = (await unwrap(api().alerts.saveRules({ preset: name, rules: rules.value.filter((rule) => rule.id !== id) }))).rules
  }

  /** "Check now": the saved rules on the builder's connection; what fires goes to Alerts. Answers what happened, in words. */
  async function checkNow(): Promise<string | null> {
    const name = preset()
    const profile = profileId()
    if (name === null || profile === null) return null
    checking.value = true
    try {
      return checkInWords(await unwrap(api().alerts.check({ preset: name, profileId: profile, requestId: newRequestId('alert-check') })))
    } finally {
      checking.value = false
    }
  }

  return { rules, loadError, backtest, backtestError, backtesting, checking, runBacktest, clearBacktest, save, remove, checkNow }
}
