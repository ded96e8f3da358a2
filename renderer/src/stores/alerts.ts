import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { FiredAlertState, FiredAlertView } from '@contract'
import { api, toApiError, unwrap, type ApiError } from '../api/bridge'
import { orderedAlerts } from '../domain/alerts/sentences'

/**
 * Fired alerts as the page sees them: the list main keeps (newest first), the one open in the
 * alert view, and the requests to open one (a notification click, `onOpenAlert`) that the Alerts
 * view takes when shown, as a preset link does for Reports.
 */
export const useAlertsStore = defineStore('alerts', () => {
  const alerts = ref<FiredAlertView[]>([])
  const total = ref(0)
  const stateFilter = ref<FiredAlertState | 'any'>('any')
  const error = ref<ApiError | null>(null)
  const loaded = ref(false)
  /** The alert the view shows; null: the list alone. */
  const openId = ref<string | null>(null)
  let listening = false
  /** Told of each alert that arrives while the app is open (a preset's run counts its own). */
  const arrivalListeners = new Set<(alert: FiredAlertView) => void>()
  function onArrived(listener: (alert: FiredAlertView) => void): () => void {
    arrivalListeners.add(listener)
    return () => arrivalListeners.delete(listener)
  }

  /** As the list shows them: the most unusual first, then the newest (main keeps them newest first). */
  const ordered = computed(() => orderedAlerts(alerts.value))
  const newCount = computed(() => alerts.value.filter((alert) => alert.state === 'new').length)

  async function load(): Promise<void> {
    try {
      const filter = stateFilter.value === 'any' ? {} : { state: stateFilter.value }
      const answer = await unwrap(api().alerts.fired({ ...filter, limit: 200 }))
      alerts.value = answer.alerts
      total.value = answer.total
      error.value = null
    } catch (failure) {
      error.value = toApiError(failure)
    } finally {
      loaded.value = true
    }
  }

  function replace(updated: FiredAlertView): void {
    alerts.value = alerts.value.map((alert) => (alert.id === updated.id ? updated : alert))
  }

  async function acknowledge(id: string): Promise<FiredAlertView> {
    const updated = await unwrap(api().alerts.acknowledge({ id }))
    replace(updated)
    return updated
  }

  async function snooze(id: string, until: Date): Promise<FiredAlertView> {
    const updated = await unwrap(api().alerts.snooze({ id, until: until.toISOString() }))
    replace(updated)
    return updated
  }

  function listen(openSection: () => void): void {
    if (listening) return
    listening = true
    api().onAlertFired((alert) => {
      if (alerts.value.some((known) => known.id === alert.id)) return
      alerts.value = [alert, ...alerts.value]
      for (const listener of arrivalListeners) listener(alert)
    })
    api().onOpenAlert(({ id }) => {
      openId.value = id
      openSection()
    })
  }

  return { alerts, ordered, total, stateFilter, error, loaded, openId, newCount, load, acknowledge, snooze, listen, onArrived }
})
