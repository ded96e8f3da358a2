import { shallowRef, watch } from 'vue'
import type { Entity, EntityKindSpec } from '@contract'
import { api, unwrap } from '../../api/bridge'
import { changedHereSentence } from '../../domain/entities/changedHere'

/** The entity a drawer shows, and which opening of it (`key`): each opening reads the log again. */
export interface ChangedHereTarget {
  profileId: string
  spec: EntityKindSpec
  entity: Entity
  key: number
}

/**
 * When the entity was last changed from this app, read from the connection's change log in
 * main (a local file, not the platform): its latest applied change, one record. null while
 * the answer is on its way, or with no entity shown.
 */
export function useChangedHere(target: () => ChangedHereTarget | null) {
  const sentence = shallowRef<string | null>(null)
  let asked = 0
  watch(
    () => {
      const shown = target()
      return shown === null ? null : `${shown.key}\u0000${shown.profileId}\u0000${shown.spec.kind}\u0000${String(shown.entity.id)}`
    },
    async () => {
      const shown = target()
      const ticket = ++asked
      sentence.value = null
      if (shown === null) return
      const { profileId, spec, entity } = shown
      try {
        const answer = await unwrap(api().changes.list({ profileId, query: { kind: spec.kind, id: entity.id, outcome: 'applied', limit: 1 } }))
        if (ticket === asked) sentence.value = changedHereSentence(answer.records[0] ?? null, spec)
      } catch {
        // The log's own screen says what is wrong with it; here, only that the answer is missing.
        if (ticket === asked) sentence.value = 'When it was last changed here is not known: the change log could not be read.'
      }
    },
    { immediate: true },
  )
  return sentence
}
