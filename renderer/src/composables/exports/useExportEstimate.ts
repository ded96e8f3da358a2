import { computed, ref, shallowRef, watch, type Ref } from 'vue'
import type { ExportEstimate, ExportOptions, ExportSource } from '@contract'
import { toOptions, type ExportForm } from '../../domain/exports/options'
import { useExportsStore } from '../../stores/exports'
import { useLatestCall } from '../useLatestCall'

/** How long the form must stay still before the platform is asked again: typing should not send a call per key. */
const SETTLE_MS = 400

/** What an estimate was asked for, as a comparable string: the profile, the source, the options (keys in one place, named or not). */
const requestKey = (profile: string | null, source: ExportSource | null, { keys, ...rest }: ExportOptions): string =>
  JSON.stringify([profile, source, rest, keys ?? null])

/**
 * The caps and the row estimate for the dialog's current choices, from `exports:estimate`. A
 * change stops the call still out (`requests:cancel`), so only the newest answer is shown.
 */
export function useExportEstimate(profileId: Ref<string | null>, source: Ref<ExportSource | null>, form: Ref<ExportForm | null>, valid: Ref<boolean>) {
  const store = useExportsStore()
  const estimate = shallowRef<ExportEstimate | null>(null)
  const failure = ref<string | null>(null)
  /** The options the shown estimate was asked for: a Start right after a change must not count on the old one. */
  const answeredFor = ref<string | null>(null)
  const current = computed(() => (form.value ? requestKey(profileId.value, source.value, toOptions(form.value)) : null))
  const fresh = computed(() => estimate.value !== null && answeredFor.value !== null && answeredFor.value === current.value)

  const latest = useLatestCall(
    (requestId, profile: string, chosen: ExportSource, _shown: ExportForm, options: ExportOptions) => store.estimate(profile, chosen, options, requestId),
    {
      label: 'estimate',
      debounceMs: SETTLE_MS,
      onValue: (answer, profile, chosen, shown, options) => {
        estimate.value = answer
        // The keys were main's choice: show the ones it resolved (auto granularity from the dates); the
        // answer stands for the form with them, as asking again with them named would be the same request.
        if (shown.keys === null) shown.keys = [...answer.keys]
        answeredFor.value = requestKey(profile, chosen, options.keys === undefined ? { ...options, keys: answer.keys } : options)
        failure.value = null
      },
      onError: (error) => {
        failure.value = `No estimate: ${error.message}`
      },
    },
  )

  async function ask(): Promise<void> {
    const profile = profileId.value
    const chosen = source.value
    const shown = form.value
    if (!profile || !chosen || !shown || !valid.value) return
    // Already answered: the keys main chose were just filled in, which asks nothing new.
    if (fresh.value) return
    await latest.run(profile, chosen, shown, toOptions(shown))
  }

  watch([form, valid], () => latest.schedule(() => void ask()), { deep: true, immediate: true })

  return { estimate, fresh, loading: latest.loading, failure }
}
