import { computed, ref, shallowRef, type Ref } from 'vue'
import type { EditOperationInput, EntityField, EntityId, EntityKindSpec, PlanSummary } from '@contract'
import { api, errorMessage, unwrap } from '../../api/bridge'

export type EditScope = 'checked' | 'shown'
export type EditOp = EditOperationInput['op']

const LIST_TYPES: ReadonlySet<EntityField['type']> = new Set(['domains', 'references'])
export const isListField = (field: EntityField | undefined): boolean => field !== undefined && LIST_TYPES.has(field.type)

/** The operations a field allows: a list field adds and removes values too. */
export function operationsFor(field: EntityField | undefined): Array<{ label: string; value: EditOp }> {
  const set = { label: field?.type === 'boolean' ? 'Set to' : 'Set to (empty clears)', value: 'set' as const }
  return isListField(field) ? [{ label: 'Add values', value: 'add' }, { label: 'Remove values', value: 'remove' }, set] : [set]
}

/**
 * The Bulk edit… form: which rows (the checked ones, or every row the search and filters
 * show), which field, which operation and value; planning it asks main (nothing is sent).
 */
export function useBulkEdit(spec: Ref<EntityKindSpec>, ids: { checked: () => EntityId[]; shown: () => EntityId[] }) {
  const scope = ref<EditScope>('checked')
  const field = ref<string | null>(null)
  const op = ref<EditOp>('set')
  const value = ref('')
  const error = shallowRef<string | null>(null)
  const planning = shallowRef(false)

  const editable = computed(() => spec.value.fields.filter((candidate) => !candidate.readOnly))
  const chosen = computed(() => editable.value.find((candidate) => candidate.name === field.value))
  const targets = computed(() => (scope.value === 'checked' ? ids.checked() : ids.shown()))

  function start(hasChecked: boolean): void {
    scope.value = hasChecked ? 'checked' : 'shown'
    field.value = editable.value.find((candidate) => candidate.type === 'boolean')?.name ?? editable.value[0]?.name ?? null
    op.value = 'set'
    value.value = ''
    error.value = null
  }
  function chooseField(name: string): void {
    field.value = name
    op.value = operationsFor(editable.value.find((candidate) => candidate.name === name))[0]?.value ?? 'set'
    value.value = ''
  }

  async function plan(profileId: string): Promise<PlanSummary | null> {
    if (field.value === null) return null
    planning.value = true
    error.value = null
    try {
      return await unwrap(
        api().bulk.planEdit({ profileId, kind: spec.value.kind, ids: targets.value, operation: { op: op.value, field: field.value, value: value.value } }),
      )
    } catch (failure) {
      error.value = errorMessage(failure)
      return null
    } finally {
      planning.value = false
    }
  }

  return { scope, field, op, value, error, planning, editable, chosen, targets, start, chooseField, plan }
}
