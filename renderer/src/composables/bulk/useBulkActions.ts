import { shallowRef, watch, type Ref } from 'vue'
import type { PlanSummary, UnfinishedBatchView } from '@contract'
import { api, errorMessage, unwrap } from '../../api/bridge'

/**
 * What the Entities screen starts in bulk: the plan on screen (from an edit, an import or a
 * resume), the import file's choosing, and the batches an interrupted apply left, offered at start.
 */
export function useBulkActions(profileId: Ref<string | null>, kind: Ref<string>, notifyError: (text: string) => void) {
  const plan = shallowRef<PlanSummary | null>(null)
  const choices = shallowRef<string[] | null>(null)
  const unfinished = shallowRef<UnfinishedBatchView[]>([])

  async function loadUnfinished(): Promise<void> {
    const profile = profileId.value
    unfinished.value = profile ? await unwrap(api().bulk.unfinished({ profileId: profile })).catch(() => []) : []
  }
  watch(profileId, () => void loadUnfinished(), { immediate: true })

  async function importFile(fileName?: string): Promise<void> {
    const profile = profileId.value
    if (!profile) return
    try {
      const opened = await unwrap(api().bulk.openImport({ profileId: profile, kind: kind.value, ...(fileName ? { fileName } : {}) }))
      choices.value = opened.status === 'choose' ? opened.files : null
      if (opened.status === 'planned') plan.value = opened.plan
    } catch (failure) {
      choices.value = null
      notifyError(errorMessage(failure))
    }
  }

  async function resume(batch: string): Promise<void> {
    const profile = profileId.value
    if (!profile) return
    try {
      plan.value = await unwrap(api().bulk.resume({ profileId: profile, batch }))
      unfinished.value = unfinished.value.filter((candidate) => candidate.batch !== batch)
    } catch (failure) {
      notifyError(errorMessage(failure))
    }
  }

  async function discard(batch: string): Promise<void> {
    const profile = profileId.value
    if (!profile) return
    try {
      await unwrap(api().bulk.discard({ profileId: profile, batch }))
      unfinished.value = unfinished.value.filter((candidate) => candidate.batch !== batch)
    } catch (failure) {
      notifyError(errorMessage(failure))
    }
  }

  return { plan, choices, unfinished, importFile, resume, discard, loadUnfinished }
}
