import { ref, shallowRef } from 'vue'
import { useDialog } from 'naive-ui'
import type { Dependent, EntityId, EntityKindSpec } from '@contract'
import { toApiError } from '../../api/bridge'
import { dependentsOf } from '../../domain/entities/dependents'
import { useEntitiesStore } from '../../stores/entities'

export interface BulkResult {
  id: EntityId
  name: string
  ok: boolean
  message?: string
  dependents?: Dependent[]
}

/** Deletes the selected rows one by one and keeps every outcome for the report. */
export function useBulkDelete() {
  const store = useEntitiesStore()
  const dialog = useDialog()
  const running = ref(false)
  const progress = ref({ done: 0, total: 0 })
  const results = shallowRef<BulkResult[] | null>(null)

  async function run(profileId: string, spec: EntityKindSpec, targets: Array<{ id: EntityId; name: string }>): Promise<BulkResult[]> {
    running.value = true
    progress.value = { done: 0, total: targets.length }
    const outcome: BulkResult[] = []
    for (const target of targets) {
      try {
        await store.remove(profileId, spec.kind, target.id)
        outcome.push({ ...target, ok: true })
      } catch (error) {
        const apiError = toApiError(error)
        const dependents =
          apiError.code === 'dependents'
            ? dependentsOf(
                apiError,
                spec,
                target.id,
                (kind) => store.peek(profileId, kind).rows,
                (kind) => store.specFor(kind, profileId),
              )
            : undefined
        outcome.push({ ...target, ok: false, message: apiError.message, ...(dependents ? { dependents } : {}) })
        // Offline or read-only: the rest would fail the same way.
        if (apiError.code === 'network' || apiError.code === 'forbidden') {
          for (const rest of targets.slice(outcome.length)) outcome.push({ ...rest, ok: false, message: `Not tried: ${apiError.message}` })
          break
        }
      }
      progress.value = { done: outcome.length, total: targets.length }
    }
    running.value = false
    results.value = outcome
    return outcome
  }

  /** Asks before deleting (the Change log can create them again), then deletes; `afterwards` gets every outcome. */
  function confirmAndRun(
    profileId: string,
    spec: EntityKindSpec,
    targets: Array<{ id: EntityId; name: string }>,
    afterwards: (outcome: BulkResult[]) => void,
  ): void {
    dialog.warning({
      title: `Delete ${targets.length} ${targets.length === 1 ? spec.singular : spec.label.toLowerCase()}?`,
      content:
        'Each one is deleted on the platform; the Change log keeps them, and Revert there creates them again with new ids. Any that others depend on are kept, and the report says which.',
      positiveText: `Delete ${targets.length}`,
      positiveButtonProps: { type: 'error' },
      negativeText: 'Cancel',
      onPositiveClick: async () => afterwards(await run(profileId, spec, targets)),
    })
  }

  return { running, progress, results, run, confirmAndRun }
}
