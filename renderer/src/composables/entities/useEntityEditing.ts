import { computed, nextTick, ref, type Ref } from 'vue'
import type { Draft, Entity, EntityId } from '@contract'
import type { FormOutcome } from '../../domain/entities/entityForm'
import type { RowSelection } from '../../lib/table'
import type { KindScreen } from './useKindScreen'

export interface EntityEditingOptions {
  screen: KindScreen
  selection: RowSelection<Entity>
  /** The list, to give the keyboard back to once the form closes. */
  list: Ref<{ focus(): void } | null>
  notify: { success(text: string): void; info(text: string): void; error(text: string): void }
}

/**
 * Which entity the drawer edits (or a new one), and how the list follows it: opening one from a
 * reference or a draft, what a save or delete says, and where the focus goes after.
 */
export function useEntityEditing({ screen, selection, list, notify }: EntityEditingOptions) {
  const { store, drafts, profileId, kind, spec, rows, locked } = screen
  const editing = ref<{ entity: Entity | null; key: number } | null>(null)
  let formKey = 0

  const title = (row: Entity | null): string => String(row?.[spec.value.titleField] ?? (row ? `#${String(row.id)}` : ''))
  const otherDrafts = computed(() => drafts.drafts.filter((draft) => draft.kind === kind.value && editing.value === null))

  function openForm(entity: Entity | null): void {
    if (entity) selection.selected.value = String(entity.id)
    editing.value = { entity, key: ++formKey }
  }
  /** Back to the list once the DOM has settled, so the arrows and Enter go on from the same row. */
  function focusList(): void {
    void nextTick(() => list.value?.focus())
  }
  function closeForm(): void {
    editing.value = null
    focusList()
  }
  function openNew(): void {
    if (!locked.value) openForm(null)
  }

  /** Shows a row: clears the search and filters if they hide it, selects it and scrolls to it. */
  const reveal = (id: EntityId): Promise<void> => selection.reveal(String(id), screen.table.clear)

  async function openRef(refKind: string, id: string): Promise<void> {
    const profile = profileId.value
    if (!profile) return
    editing.value = null
    screen.choose(refKind)
    await store.open(profile, refKind)
    await nextTick()
    const row =
      store.peek(profile, refKind).rows.find((candidate) => String(candidate.id) === id) ??
      (await store.get(profile, refKind, /^\d+$/.test(id) ? Number(id) : id).catch(() => null))
    if (!row) {
      notify.error(`${store.specFor(refKind, profile).singular} #${id} was not found in the local copy or on the platform.`)
      return
    }
    await reveal(row.id)
    openForm(row)
  }

  function done(result: FormOutcome): void {
    editing.value = null
    const entity = result.entity
    if (!entity) return
    const name = title(entity)
    if (result.kind === 'created') notify.success(`Created ${spec.value.singular} “${name}” (#${String(entity.id)})`)
    else if (result.kind === 'saved') notify.success(`Saved “${name}”`)
    else if (result.kind === 'unchanged') notify.info('No changes to save')
    if (result.kind === 'deleted') {
      notify.success(`Deleted “${name}”`)
      selection.forget(String(entity.id))
      focusList()
    } else void reveal(entity.id).then(() => list.value?.focus())
  }

  function openDraft(draft: Draft): void {
    if (draft.key === 'new') return openForm(null)
    const row = rows.value.find((candidate) => String(candidate.id) === draft.key) ?? (draft.original as Entity | null)
    if (row) openForm(row)
  }
  function discardDraft(draft: Draft): void {
    if (profileId.value) void drafts.discard(profileId.value, draft.kind, draft.key)
  }
  const draftName = (draft: Draft): string => title(rows.value.find((row) => String(row.id) === draft.key) ?? (draft.original as Entity | null))

  return { editing, title, otherDrafts, openForm, closeForm, openNew, openRef, done, openDraft, discardDraft, draftName }
}
