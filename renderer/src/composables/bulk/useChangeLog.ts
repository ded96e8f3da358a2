import { computed, reactive, shallowRef, watch, type Ref } from 'vue'
import type { BatchSummaryView, ChangeQueryInput, ChangeRecordView, PlanSummary } from '@contract'
import { api, errorMessage, unwrap } from '../../api/bridge'

export const LOG_PAGE = 100

export interface LogFilters {
  text: string
  kind: string | null
  outcome: 'applied' | 'failed' | 'conflict' | null
  batch: string | null
  /** A day, yyyy-mm-dd (the date picker's formatted value). */
  since: string | null
}

/**
 * The change log screen: one page of records (newest first, main filters and pages them), the
 * batches for the batch filter, the CSV export of every match and the plan of a revert.
 */
export function useChangeLog(profileId: Ref<string | null>) {
  const filters = reactive<LogFilters>({ text: '', kind: null, outcome: null, batch: null, since: null })
  const page = shallowRef(0)
  const records = shallowRef<ChangeRecordView[]>([])
  const total = shallowRef(0)
  const batches = shallowRef<BatchSummaryView[]>([])
  const error = shallowRef<string | null>(null)
  const loading = shallowRef(false)
  let asked = 0

  const query = computed<ChangeQueryInput>(() => ({
    ...(filters.text.trim() ? { text: filters.text.trim() } : {}),
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.outcome ? { outcome: filters.outcome } : {}),
    ...(filters.batch ? { batch: filters.batch } : {}),
    ...(filters.since ? { since: filters.since } : {}),
  }))
  const pages = computed(() => Math.max(1, Math.ceil(total.value / LOG_PAGE)))

  async function load(): Promise<void> {
    const profile = profileId.value
    if (!profile) return
    const ticket = ++asked
    loading.value = true
    try {
      const [answer, known] = await Promise.all([
        unwrap(api().changes.list({ profileId: profile, query: { ...query.value, offset: page.value * LOG_PAGE, limit: LOG_PAGE } })),
        unwrap(api().changes.batches({ profileId: profile })),
      ])
      // A later question (a keystroke) wins over an earlier answer.
      if (ticket !== asked) return
      records.value = answer.records
      total.value = answer.total
      batches.value = known
      error.value = null
    } catch (failure) {
      if (ticket === asked) error.value = errorMessage(failure)
    } finally {
      if (ticket === asked) loading.value = false
    }
  }
  watch(query, () => {
    page.value = 0
    void load()
  })
  watch([profileId, page], () => void load(), { immediate: true })

  function setFilter(key: keyof LogFilters, value: string | null): void {
    if (key === 'text') filters.text = value ?? ''
    else if (key === 'outcome') filters.outcome = value === 'applied' || value === 'failed' || value === 'conflict' ? value : null
    else filters[key] = value
  }

  async function exportCsv(): Promise<string | null> {
    const profile = profileId.value
    if (!profile) return null
    const written = await unwrap(api().changes.exportCsv({ profileId: profile, query: query.value }))
    return written === null ? null : `${written.rows.toLocaleString('en-US')} changes saved to ${written.fileName}.`
  }

  async function planRevert(target: { change: string } | { batch: string }): Promise<PlanSummary | null> {
    const profile = profileId.value
    if (!profile) return null
    try {
      return await unwrap(api().changes.planRevert({ profileId: profile, ...target }))
    } catch (failure) {
      error.value = errorMessage(failure)
      return null
    }
  }

  return { filters, setFilter, page, pages, records, total, batches, error, loading, load, exportCsv, planRevert }
}
