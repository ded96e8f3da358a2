import { onBeforeUnmount, ref, type Ref } from 'vue'
import { api, unwrap } from '../../api/bridge'
import { valuesScope } from '../../domain/reports/definition'
import { useReportsStore } from '../../stores/reports'

export interface ValueOption {
  value: string
  name: string | null
}

/**
 * Values of a key that contain the typed text (from main, ranked by the first metric), for filter
 * suggestions and the line picker. Typing again cancels the call still running; `minLength`
 * keeps short texts from asking (the platform warns that 1–2 characters are slow).
 */
export function useValueSearch(key: Ref<string | null>, options: { minLength: number; limit: number; delayMs?: number; editingFilter: Ref<number | null> }) {
  const store = useReportsStore()
  const results = ref<ValueOption[]>([])
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** Names seen for values of this key, kept so picked values keep their labels. */
  const names = ref<Record<string, string>>({})
  let timer: ReturnType<typeof setTimeout> | null = null
  let inflight: string | null = null

  async function ask(text: string): Promise<void> {
    const definition = store.definition
    const profileId = store.profileId
    if (!definition || !profileId || !key.value) return
    if (inflight) void api().requests.cancel({ requestId: inflight })
    const requestId = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `values-${Date.now()}`
    inflight = requestId
    loading.value = true
    try {
      const found = await unwrap(
        api().reports.values({
          profileId,
          definition: valuesScope(definition, store.info, options.editingFilter.value),
          key: key.value,
          text,
          limit: options.limit,
          requestId,
        }),
      )
      if (inflight !== requestId) return
      results.value = found
      error.value = null
      const known = { ...names.value }
      for (const entry of found) if (entry.name) known[entry.value] = entry.name
      names.value = known
    } catch (caught) {
      if (inflight !== requestId) return
      results.value = []
      error.value = (caught as Error).message
    } finally {
      if (inflight === requestId) {
        inflight = null
        loading.value = false
      }
    }
  }

  function search(text: string): void {
    if (timer !== null) clearTimeout(timer)
    if (text.trim().length < options.minLength) {
      results.value = []
      error.value = null
      return
    }
    timer = setTimeout(() => void ask(text.trim()), options.delayMs ?? 250)
  }

  onBeforeUnmount(() => {
    if (timer !== null) clearTimeout(timer)
    if (inflight) void api().requests.cancel({ requestId: inflight })
  })

  return { results, loading, error, names, search }
}
