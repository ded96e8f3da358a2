import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Draft } from '@contract'
import { api, unwrap } from '../api/bridge'
import type { JsonValue } from '../domain/entities/entityForm'

/**
 * Unsaved entity edits that main keeps on disk while the user types, for the active profile:
 * a form reopens with them, and the list offers the ones no form has open.
 */
export const useDraftsStore = defineStore('drafts', () => {
  const drafts = ref<Draft[]>([])
  /** The profile `drafts` belong to; null until loaded. */
  const profileId = ref<string | null>(null)

  async function load(profile: string): Promise<void> {
    try {
      drafts.value = await unwrap(api().drafts.list({ profileId: profile }))
      profileId.value = profile
    } catch {
      // Drafts are a safety net; without them the forms still work.
      drafts.value = []
    }
  }

  function draftFor(kind: string, key: string): Draft | undefined {
    return drafts.value.find((draft) => draft.kind === kind && draft.key === key)
  }

  const others = (kind: string, key: string) => drafts.value.filter((existing) => !(existing.kind === kind && existing.key === key))

  /*
   * Saves and discards of one draft run one after another. A save still on its way when the form's
   * entity is created would otherwise land after the discard and bring the draft back, on disk and
   * in the "unsaved draft is waiting" banner, for something the user has already saved.
   */
  const queues = new Map<string, Promise<void>>()
  function inOrder(profile: string, kind: string, key: string, operation: () => Promise<void>): Promise<void> {
    const id = JSON.stringify([profile, kind, key])
    const previous = queues.get(id) ?? Promise.resolve()
    const next = previous.catch(() => undefined).then(operation)
    const settled = next.catch(() => undefined)
    queues.set(id, settled)
    void settled.then(() => {
      if (queues.get(id) === settled) queues.delete(id)
    })
    return next
  }

  function save(profile: string, kind: string, key: string, draft: Record<string, JsonValue>, original: Record<string, JsonValue> | null): Promise<void> {
    return inOrder(profile, kind, key, async () => {
      await unwrap(api().drafts.save({ profileId: profile, kind, key, draft, original }))
      drafts.value = [...others(kind, key), { kind, key, draft, original, savedAt: new Date().toISOString() }]
    })
  }

  function discard(profile: string, kind: string, key: string): Promise<void> {
    // Gone from the list at once, and again when its turn comes: a save queued before it may have put it back.
    drafts.value = others(kind, key)
    return inOrder(profile, kind, key, async () => {
      drafts.value = others(kind, key)
      await unwrap(api().drafts.discard({ profileId: profile, kind, key }))
    })
  }

  return { drafts, profileId, load, draftFor, save, discard }
})
