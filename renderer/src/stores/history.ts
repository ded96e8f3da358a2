import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { HistoryEntry, RunOutcome } from '@contract'
import { api, toApiError, unwrap, type ApiError } from '../api/bridge'
import { usePresetsStore } from './presets'
import { useReportsStore } from './reports'

/** How many runs one page of the history shows. */
const PAGE = 50

/** The run history of the active connection: newest first, searchable, filtered by preset and outcome. */
export const useHistoryStore = defineStore('history', () => {
  const reports = useReportsStore()
  const presets = usePresetsStore()
  const entries = ref<HistoryEntry[]>([])
  const total = ref(0)
  const search = ref('')
  /** undefined: every run; null: ad hoc runs only; a name: that preset's runs. */
  const preset = ref<string | null | undefined>(undefined)
  const outcome = ref<RunOutcome | undefined>(undefined)
  const loading = ref(false)
  const error = shallowRef<ApiError | null>(null)
  let sequence = 0

  async function load(): Promise<void> {
    const mine = ++sequence
    loading.value = true
    try {
      const answer = await unwrap(
        api().history.list({
          ...(reports.profileId ? { profileId: reports.profileId } : {}),
          ...(search.value.trim() ? { search: search.value.trim() } : {}),
          ...(preset.value !== undefined ? { preset: preset.value } : {}),
          ...(outcome.value ? { outcome: outcome.value } : {}),
          limit: PAGE,
        }),
      )
      if (mine !== sequence) return
      entries.value = answer.entries
      total.value = answer.total
      error.value = null
    } catch (failure) {
      if (mine === sequence) error.value = toApiError(failure)
    } finally {
      if (mine === sequence) loading.value = false
    }
  }

  /** Puts the run's definition back in the builder with its kept chart; `runAgain` also runs it now. */
  async function reopen(id: string, runAgain: boolean): Promise<void> {
    const entry = await unwrap(api().history.get({ id }))
    // A run of a preset is shown as an ad hoc report: the preset may have changed or gone since.
    await presets.show(entry.definition, null, entry.preset, runAgain)
    if (runAgain) await load()
  }

  return { entries, total, search, preset, outcome, loading, error, load, reopen }
})
