import { onScopeDispose, watch } from 'vue'
import { useReportsStore } from '../../stores/reports'
import { debounce } from '../useLatestCall'

/**
 * Keeps the resolved dates beside the date fields: asks main again, debounced, whenever the
 * tokens, the timezone rule or the report change.
 */
export function useDateResolution(delayMs = 250): void {
  const store = useReportsStore()
  const schedule = debounce(() => void store.resolveDates(), delayMs)
  watch(
    () => (store.definition ? JSON.stringify([store.definition.dates, store.definition.timezone, store.info?.timezone, store.info?.report]) : null),
    (key) => {
      if (key !== null) schedule()
    },
    { immediate: true },
  )
  onScopeDispose(schedule.cancel)
}
