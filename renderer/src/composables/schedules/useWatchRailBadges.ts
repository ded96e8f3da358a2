import { h, onMounted, type VNodeChild } from 'vue'
import type { AfterFirstScreen } from '../shell/useAfterFirstScreen'
import { NBadge } from 'naive-ui'
import { useAlertsStore } from '../../stores/alerts'
import { useNavigationStore } from '../../stores/navigation'
import { useSchedulesStore } from '../../stores/schedules'

/**
 * The rail's counts for the watching sections: failed scheduled runs not yet seen (cleared by
 * opening the run ledger, `schedules:clearFailures`) and alerts that fired and nobody has looked
 * at. Both stores listen from start-up, so the badges count whichever screen is shown, and a
 * notification click opens the alert in the Alerts view. `start` says when they start listening
 * (the shell: once the first screen is painted).
 */
export function useWatchRailBadges(start: AfterFirstScreen = (work) => onMounted(work)) {
  const schedules = useSchedulesStore()
  const alerts = useAlertsStore()
  const navigation = useNavigationStore()
  start(() => {
    schedules.listen()
    alerts.listen(() => navigation.open('alerts'))
    void alerts.load()
  })

  const count = (sectionId: string): number => (sectionId === 'schedules' ? schedules.failureCount : sectionId === 'alerts' ? alerts.newCount : 0)
  const badge = (sectionId: string) => (): VNodeChild =>
    h(NBadge, {
      value: count(sectionId),
      show: count(sectionId) > 0,
      max: 99,
      type: sectionId === 'schedules' ? 'error' : 'warning',
      'aria-hidden': 'true',
      'data-test': `${sectionId}-badge`,
    })

  /** The rail item's spoken name with its count ("Schedules, 2 failed runs"). */
  function label(sectionId: string, name: string): string | undefined {
    const value = count(sectionId)
    if (value === 0) return undefined
    return sectionId === 'schedules' ? `${name}, ${value} failed run${value === 1 ? '' : 's'}` : `${name}, ${value} new`
  }

  return { badge, label, watched: (sectionId: string) => sectionId === 'schedules' || sectionId === 'alerts' }
}
