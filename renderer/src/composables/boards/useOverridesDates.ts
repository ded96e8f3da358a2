import { onScopeDispose, shallowRef, watch, type Ref } from 'vue'
import type { ResolvedRange, TimezoneRule } from '@contract'
import { api, errorMessage, unwrap } from '../../api/bridge'
import type { OverridesForm } from '../../domain/boards/overrides'
import { debounce } from '../useLatestCall'

type Resolve = (input: { start: string; end: string; timezone: TimezoneRule; reportTimezone: null }) => Promise<ResolvedRange>
const resolveByMain: Resolve = (input) => unwrap(api().reports.resolveDates(input))

/**
 * The board's dates as main resolves them now, beside the Overrides editor's tokens: the calendar
 * shows the range "-7d" to "-1d" stands for today, and a token that cannot be read is said as it
 * is typed rather than at Save. Each report keeps its own timezone unless the board fixes one, so
 * the range shown is in this computer's timezone, or in the board's fixed offset.
 */
export function useOverridesDates(form: Ref<OverridesForm | null>, resolve: Resolve = resolveByMain, delayMs = 250) {
  const resolved = shallowRef<ResolvedRange | null>(null)
  const error = shallowRef<string | null>(null)
  /** The latest question asked: an answer to an older one is dropped. */
  let asked = 0

  async function ask(start: string, end: string, timezone: TimezoneRule): Promise<void> {
    const mine = ++asked
    try {
      const range = await resolve({ start, end, timezone, reportTimezone: null })
      if (mine !== asked) return
      resolved.value = range
      error.value = null
    } catch (failure) {
      if (mine !== asked) return
      resolved.value = null
      error.value = errorMessage(failure)
    }
  }
  const schedule = debounce(ask, delayMs)

  watch(
    () => {
      const current = form.value
      if (current === null || !current.datesOn) return null
      const timezone: TimezoneRule = current.timezoneOn && current.timezone.mode === 'fixed' ? current.timezone : { mode: 'os' }
      return JSON.stringify([current.start.trim(), current.end.trim(), timezone])
    },
    (key) => {
      if (key === null) {
        schedule.cancel()
        asked++
        resolved.value = null
        error.value = null
        return
      }
      const [start, end, timezone] = JSON.parse(key) as [string, string, TimezoneRule]
      schedule(start, end, timezone)
    },
    { immediate: true },
  )
  onScopeDispose(schedule.cancel)

  return { resolved, error }
}
