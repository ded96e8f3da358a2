import { ref, type Ref } from 'vue'
import type { ReportDefinition } from '@contract'
import { api, unwrap } from '../../api/bridge'
import { valuesScope } from '../../domain/reports/definition'
import { useReportsStore } from '../../stores/reports'
import { useLatestCall } from '../useLatestCall'

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
  const error = ref<string | null>(null)
  /** Names seen for values of this key, kept so picked values keep their labels. */
  const names = ref<Record<string, string>>({})
  /**
   * The text whose answer the results are (null before any): until the answer to what was
   * typed arrives, the menu still lists the earlier suggestions and then makes way for a spinner.
   */
  const answeredFor = ref<string | null>(null)

  const latest = useLatestCall(
    (requestId, profileId: string, definition: ReportDefinition, field: string, text: string) =>
      unwrap(api().reports.values({ profileId, definition, key: field, text, limit: options.limit, requestId })),
    {
      label: 'values',
      debounceMs: options.delayMs ?? 250,
      onValue: (found, _profileId, _definition, _field, text) => {
        answeredFor.value = text
        results.value = found
        error.value = null
        const known = { ...names.value }
        for (const entry of found) if (entry.name) known[entry.value] = entry.name
        names.value = known
      },
      onError: (failure, _profileId, _definition, _field, text) => {
        answeredFor.value = text
        results.value = []
        error.value = failure.message
      },
    },
  )

  async function ask(text: string): Promise<void> {
    const definition = store.definition
    const profileId = store.profileId
    if (!definition || !profileId || !key.value) return
    await latest.run(profileId, valuesScope(definition, store.info, options.editingFilter.value), key.value, text)
  }

  function search(text: string): void {
    if (text.trim().length < options.minLength) {
      latest.unschedule()
      results.value = []
      error.value = null
      return
    }
    latest.schedule(() => void ask(text.trim()))
  }

  return { results, loading: latest.loading, error, names, answeredFor, search }
}
