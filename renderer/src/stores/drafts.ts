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

  async function save(profile: string, kind: string, key: string, draft: Record<string, JsonValue>, original: Record<string, JsonValue> | null): Promise<void> {
    await unwrap(api().drafts.save({ profileId: profile, kind, key, draft, original }))
    drafts.value = [...others(kind, key), { kind, key, draft, original, savedAt: new Date().toISOString() }]
  }

  async function discard(profile: string, kind: string, key: string): Promise<void> {
    drafts.value = others(kind, key)
    await unwrap(api().drafts.discard({ profileId: profile, kind, key }))
  }

  return { drafts, profileId, load, draftFor, save, discard }
})
