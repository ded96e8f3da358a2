import { ref, shallowRef, type Ref } from 'vue'
import { useDialog } from 'naive-ui'
import type { Dependent, Entity, EntityKindSpec } from '@contract'
import { toApiError, type ApiError } from '../../api/bridge'
import { dependentsOf } from '../../domain/entities/dependents'
import { useEntitiesStore } from '../../stores/entities'

export interface EntityDeleteOptions {
  profileId: string
  spec: EntityKindSpec
  /** Called once the platform deleted it (the form drops its draft here). */
  deleted: (entity: Entity) => Promise<void>
  /** Where any other failure goes: the form's own error line. */
  formError: Ref<ApiError | null>
}

/**
 * Deleting the entity open in the form: asked first, and when others depend on it, which ones
 * (`blocked`), so the form can link to them instead of a bare refusal.
 */
export function useEntityDelete({ profileId, spec, deleted, formError }: EntityDeleteOptions) {
  const store = useEntitiesStore()
  const dialog = useDialog()
  const deleting = ref(false)
  const blocked = shallowRef<{ message: string; dependents: Dependent[] } | null>(null)

  function confirmDelete(entity: Entity, title: string): void {
    dialog.warning({
      title: `Delete “${title}”?`,
      // The change log records the delete with the entity as it was: its Revert creates it again.
      content: `The ${spec.singular} #${String(entity.id)} is deleted on the platform. The Change log keeps it: Revert there creates it again, with a new id.`,
      positiveText: 'Delete',
      positiveButtonProps: { type: 'error' },
      negativeText: 'Cancel',
      onPositiveClick: async () => {
        deleting.value = true
        blocked.value = null
        try {
          await store.remove(profileId, spec.kind, entity.id)
          await deleted(entity)
        } catch (error) {
          const apiError = toApiError(error)
          if (apiError.code === 'dependents') {
            const rowsOf = (kind: string) => store.peek(profileId, kind).rows
            blocked.value = {
              message: apiError.message,
              dependents: dependentsOf(apiError, spec, entity.id, rowsOf, (kind) => store.specFor(kind, profileId)),
            }
          } else formError.value = apiError
        } finally {
          deleting.value = false
        }
      },
    })
  }

  return { deleting, blocked, confirmDelete }
}
