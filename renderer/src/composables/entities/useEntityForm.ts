import { computed, onBeforeUnmount, reactive, ref, shallowRef, watch } from 'vue'
import type { Draft, Entity, EntityKindSpec } from '@contract'
import { toApiError, type ApiError } from '../../api/bridge'
import { useDraftsStore } from '../../stores/drafts'
import { useEntitiesStore } from '../../stores/entities'
import {
  WHOLE_ENTITY,
  checkForm,
  computeChanges,
  entityForCreate,
  isDirty,
  modelFromEntity,
  type FormModel,
  type JsonValue,
} from '../../domain/entities/entityForm'

export const DRAFT_DEBOUNCE_MS = 500

export interface Conflict {
  server: Entity
  changedFields: string[]
  mine: Record<string, JsonValue>
}

type Outcome = { kind: 'created' | 'saved'; entity: Entity } | { kind: 'conflict' } | { kind: 'unchanged' } | { kind: 'failed' }

const asJson = (value: Record<string, unknown>): Record<string, JsonValue> => value as Record<string, JsonValue>

/**
 * One entity form: its model, the client checks, the server's field errors, drafts kept by main
 * while typing, and the update/conflict flow. A failed save leaves the model untouched.
 */
export function useEntityForm(options: { profileId: string; spec: EntityKindSpec; entity: Entity | null }) {
  const store = useEntitiesStore()
  const drafts = useDraftsStore()
  const { profileId, spec } = options
  const key = options.entity ? String(options.entity.id) : 'new'
  const existing: Draft | undefined = drafts.draftFor(spec.kind, key)

  const original = shallowRef<Record<string, unknown> | null>(existing?.original ?? options.entity ?? null)
  const model = reactive<FormModel>(modelFromEntity(spec, original.value))
  if (existing) {
    for (const name of Object.keys(model)) if (name in existing.draft) model[name] = existing.draft[name] as FormModel[string]
  }
  const restoredAt = ref<string | null>(existing?.savedAt ?? null)
  const errors = ref<Record<string, string>>({})
  const formError = ref<ApiError | null>(null)
  const conflict = shallowRef<Conflict | null>(null)
  const saving = ref(false)
  const fresh = ref(options.entity === null)

  const dirty = computed(() => isDirty(spec, original.value, model))
  const hasWholeEditor = computed(() => WHOLE_ENTITY in model)

  function replaceModel(next: FormModel): void {
    for (const name of Object.keys(model)) delete model[name]
    Object.assign(model, next)
  }

  /* Drafts: saved ~500 ms after the last keystroke, dropped when the form matches its entity again. */
  let timer: ReturnType<typeof setTimeout> | null = null
  let hasDraft = existing !== undefined
  async function persistDraft(): Promise<void> {
    timer = null
    try {
      if (dirty.value) {
        hasDraft = true
        await drafts.save(profileId, spec.kind, key, { ...(model as Record<string, JsonValue>) }, original.value ? asJson(original.value) : null)
      } else if (hasDraft) {
        hasDraft = false
        await drafts.discard(profileId, spec.kind, key)
      }
    } catch {
      // A draft that cannot be written is not worth interrupting the user for; the form still holds it.
    }
  }
  watch(
    model,
    () => {
      if (timer !== null) clearTimeout(timer)
      timer = setTimeout(() => void persistDraft(), DRAFT_DEBOUNCE_MS)
    },
    { deep: true },
  )
  onBeforeUnmount(() => {
    if (timer !== null) {
      clearTimeout(timer)
      void persistDraft()
    }
  })

  async function discardDraft(): Promise<void> {
    if (timer !== null) clearTimeout(timer)
    timer = null
    restoredAt.value = null
    if (hasDraft) {
      hasDraft = false
      await drafts.discard(profileId, spec.kind, key).catch(() => undefined)
    }
  }

  /** Throws the draft away and shows the entity as it is now. */
  async function resetToEntity(entity: Record<string, unknown> | null): Promise<void> {
    original.value = entity
    replaceModel(modelFromEntity(spec, entity))
    errors.value = {}
    formError.value = null
    await discardDraft()
  }

  /** Re-reads an existing entity when the form opens; adopts it if the user has not typed yet. */
  async function refresh(): Promise<void> {
    if (!options.entity) return
    try {
      const current = await store.get(profileId, spec.kind, options.entity.id)
      if (!dirty.value && restoredAt.value === null) {
        original.value = current
        replaceModel(modelFromEntity(spec, current))
      }
    } catch {
      // Offline or gone: the banner and the save say so; the mirror copy stays in the form.
    } finally {
      fresh.value = true
    }
  }

  function showError(error: unknown): void {
    const apiError = toApiError(error)
    const found: Record<string, string> = {}
    const known = new Set(Object.keys(model))
    for (const [name, messages] of Object.entries(apiError.fieldErrors)) {
      const text = Array.isArray(messages) ? messages.join(' ') : String(messages)
      if (known.has(name)) found[name] = text
      else if (hasWholeEditor.value) found[WHOLE_ENTITY] = `${found[WHOLE_ENTITY] ? `${found[WHOLE_ENTITY]} ` : ''}${name}: ${text}`
    }
    errors.value = found
    const unplaced = Object.keys(apiError.fieldErrors).filter((name) => !known.has(name) && !hasWholeEditor.value)
    formError.value = Object.keys(found).length > 0 && unplaced.length === 0 ? null : apiError
  }

  async function save(force = false): Promise<Outcome> {
    const problems = checkForm(spec, model)
    errors.value = problems
    formError.value = null
    if (Object.keys(problems).length > 0) return { kind: 'failed' }
    saving.value = true
    try {
      if (!options.entity) {
        const created = await store.create(profileId, spec.kind, entityForCreate(spec, model))
        await discardDraft()
        return { kind: 'created', entity: created }
      }
      const changes = computeChanges(spec, original.value, model)
      if (Object.keys(changes).length === 0 && !force) {
        await discardDraft()
        return { kind: 'unchanged' }
      }
      const result = await store.update(profileId, spec.kind, options.entity.id, asJson(original.value ?? options.entity), changes, force)
      if (result.status === 'conflict') {
        conflict.value = { server: result.server, changedFields: result.changedFields, mine: changes }
        return { kind: 'conflict' }
      }
      conflict.value = null
      await discardDraft()
      return { kind: 'saved', entity: result.entity }
    } catch (error) {
      showError(error)
      return { kind: 'failed' }
    } finally {
      saving.value = false
    }
  }

  /** Conflict resolved by taking the server's copy: the form shows it, the user's edits are dropped. */
  async function takeServer(): Promise<void> {
    const server = conflict.value?.server ?? null
    conflict.value = null
    await resetToEntity(server)
  }

  return {
    key,
    model,
    original,
    errors,
    formError,
    conflict,
    saving,
    dirty,
    fresh,
    restoredAt,
    hasWholeEditor,
    save,
    refresh,
    takeServer,
    resetToEntity,
    discardDraft,
  }
}

export type EntityFormState = ReturnType<typeof useEntityForm>
