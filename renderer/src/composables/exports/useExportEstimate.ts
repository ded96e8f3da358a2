import { computed, onBeforeUnmount, ref, shallowRef, watch, type Ref } from 'vue'
import type { ExportEstimate, ExportOptions, ExportSource } from '@contract'
import { api, errorMessage } from '../../api/bridge'
import { toOptions, type ExportForm } from '../../domain/exports/options'
import { useExportsStore } from '../../stores/exports'

/** How long the form must stay still before the platform is asked again: typing should not send a call per key. */
const SETTLE_MS = 400

/** What an estimate was asked for, as a comparable string: the profile, the source, the options (keys in one place, named or not). */
const requestKey = (profile: string | null, source: ExportSource | null, { keys, ...rest }: ExportOptions): string =>
  JSON.stringify([profile, source, rest, keys ?? null])

function newRequestId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `estimate-${Date.now()}-${Math.random().toString(36).slice(2)}`
}

/**
 * The caps and the row estimate for the dialog's current choices, from `exports:estimate`. A
 * change stops the call still out (`requests:cancel`), so only the newest answer is shown.
 */
export function useExportEstimate(profileId: Ref<string | null>, source: Ref<ExportSource | null>, form: Ref<ExportForm | null>, valid: Ref<boolean>) {
  const store = useExportsStore()
  const estimate = shallowRef<ExportEstimate | null>(null)
  const loading = ref(false)
  const failure = ref<string | null>(null)
  /** The options the shown estimate was asked for: a Start right after a change must not count on the old one. */
  const answeredFor = ref<string | null>(null)
  const current = computed(() => (form.value ? requestKey(profileId.value, source.value, toOptions(form.value)) : null))
  const fresh = computed(() => estimate.value !== null && answeredFor.value !== null && answeredFor.value === current.value)
  let pending: string | null = null
  let timer: ReturnType<typeof setTimeout> | null = null

  function stopPending(): void {
    if (pending !== null) void api().requests.cancel({ requestId: pending })
    pending = null
  }

  async function ask(): Promise<void> {
    const profile = profileId.value
    const chosen = source.value
    const shown = form.value
    if (!profile || !chosen || !shown || !valid.value) return
    // Already answered: the keys main chose were just filled in, which asks nothing new.
    if (fresh.value) return
    stopPending()
    const requestId = newRequestId()
    const options = toOptions(shown)
    pending = requestId
    loading.value = true
    try {
      const answer = await store.estimate(profile, chosen, options, requestId)
      if (pending !== requestId) return
      estimate.value = answer
      // The keys were main's choice: show the ones it resolved (auto granularity from the dates); the
      // answer stands for the form with them, as asking again with them named would be the same request.
      if (shown.keys === null) shown.keys = [...answer.keys]
      answeredFor.value = requestKey(profile, chosen, options.keys === undefined ? { ...options, keys: answer.keys } : options)
      failure.value = null
    } catch (error) {
      if (pending === requestId) failure.value = `No estimate: ${errorMessage(error)}`
    } finally {
      if (pending === requestId) {
        pending = null
        loading.value = false
      }
    }
  }

  watch(
    [form, valid],
    () => {
      if (timer !== null) clearTimeout(timer)
      timer = setTimeout(() => void ask(), SETTLE_MS)
    },
    { deep: true, immediate: true },
  )
  onBeforeUnmount(() => {
    if (timer !== null) clearTimeout(timer)
    stopPending()
  })

  return { estimate, fresh, loading, failure }
}
