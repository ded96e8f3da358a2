import { defineStore } from 'pinia'
import { computed, ref, shallowReactive } from 'vue'
import { sameId, type Entity, type EntityId, type EntityKindSpec, type UpdateResult } from '@contract'
import { api, errorMessage, toApiError, unwrap, type ApiError } from '../api/bridge'
import type { JsonValue } from '../domain/entities/entityForm'
import { inferSpec } from '../domain/entities/inferSpec'
import { nameMap } from '../domain/entities/references'
import { useConnectivityStore } from './connectivity'
import { blankKindState, createMirrorLoader, setRows, type KindState } from './entityMirror'

export type { KindState }

const EMPTY: Readonly<KindState> = Object.freeze(blankKindState('', ''))

/**
 * The entity lists: the kinds the platform has and, per profile and kind, the local mirror's
 * rows, kept current by syncs and by this app's own creates, updates and deletes. Whether the
 * platform can be reached lives in the connectivity store; unsaved edits in the drafts store.
 */
export const useEntitiesStore = defineStore('entities', () => {
  const connectivity = useConnectivityStore()
  const kinds = ref<EntityKindSpec[]>([])
  const kindsError = ref<string | null>(null)
  const builtInKinds = computed(() => kinds.value.map((spec) => spec.kind))
  const states = shallowReactive(new Map<string, KindState>())
  const nameMaps = new WeakMap<Entity[], Map<string, string>>()
  let subscribed = false

  const keyOf = (profileId: string, kind: string): string => `${profileId}\u0000${kind}`

  function state(profileId: string, kind: string): KindState {
    const key = keyOf(profileId, kind)
    let found = states.get(key)
    if (!found) states.set(key, (found = shallowReactive(blankKindState(profileId, kind))))
    return found
  }

  /** Reads a kind's state without creating it (safe inside computed values; tracks its creation). */
  function peek(profileId: string, kind: string): Readonly<KindState> {
    return states.get(keyOf(profileId, kind)) ?? EMPTY
  }

  function specFor(kind: string, profileId: string | null): EntityKindSpec {
    return kinds.value.find((spec) => spec.kind === kind) ?? inferSpec(kind, profileId ? peek(profileId, kind).rows : [])
  }

  /** id (as text) → display name, from the mirror of `kind`; built once per list. */
  function names(profileId: string, kind: string): Map<string, string> {
    const rows = peek(profileId, kind).rows
    let map = nameMaps.get(rows)
    if (!map) nameMaps.set(rows, (map = nameMap(rows, specFor(kind, profileId).titleField)))
    return map
  }

  /** Records what a failure means for the screen: offline, read-only or waiting. */
  function noteError(profileId: string, kind: string | null, error: unknown): ApiError {
    const apiError = toApiError(error)
    connectivity.note(profileId, apiError)
    if (apiError.code === 'forbidden' && kind !== null) state(profileId, kind).readOnly = apiError.message
    return apiError
  }

  const mirror = createMirrorLoader({ state, noteError, online: connectivity.online })

  /** Main's sync progress and rate-limit events, followed from the first list opened. */
  function subscribe(): void {
    if (subscribed) return
    subscribed = true
    api().onSyncProgress(mirror.progress)
    connectivity.listen()
  }

  async function loadKinds(): Promise<void> {
    if (kinds.value.length > 0) return
    try {
      kinds.value = await unwrap(api().entities.kinds({}))
      kindsError.value = null
    } catch (error) {
      kindsError.value = errorMessage(error)
    }
  }

  /** Shows the mirror at once; syncs when the kind was never synced. */
  function open(profileId: string, kind: string): Promise<void> {
    subscribe()
    return mirror.open(profileId, kind)
  }

  /** Fetches every page again. The first sync shows rows as they stream in; a refresh swaps them at the end. */
  function sync(profileId: string, kind: string): Promise<void> {
    subscribe()
    return mirror.sync(profileId, kind)
  }

  /** One call to the platform about a kind: success means it is reachable; a failure is noted, then thrown. */
  async function call<T>(profileId: string, kind: string, work: () => Promise<T>): Promise<T> {
    try {
      const value = await work()
      connectivity.online(profileId)
      return value
    } catch (error) {
      throw noteError(profileId, kind, error)
    }
  }

  /** Puts one entity into its list: replaces the row with its id, or adds it at the end. */
  function upsert(profileId: string, kind: string, entity: Entity): void {
    const target = state(profileId, kind)
    const index = target.rows.findIndex((row) => sameId(row.id, entity.id))
    const next = target.rows.slice()
    if (index >= 0) next[index] = entity
    else next.push(entity)
    setRows(target, next)
  }

  async function get(profileId: string, kind: string, id: EntityId): Promise<Entity> {
    const entity = await call(profileId, kind, () => unwrap(api().entities.get({ profileId, kind, id })))
    upsert(profileId, kind, entity)
    return entity
  }

  async function create(profileId: string, kind: string, entity: Record<string, JsonValue>): Promise<Entity> {
    const created = await call(profileId, kind, () => unwrap(api().entities.create({ profileId, kind, entity })))
    upsert(profileId, kind, created)
    return created
  }

  async function update(
    profileId: string,
    kind: string,
    id: EntityId,
    original: Record<string, JsonValue>,
    changes: Record<string, JsonValue>,
    force = false,
  ): Promise<UpdateResult> {
    const result = await call(profileId, kind, () =>
      unwrap(api().entities.update({ profileId, kind, id, original, changes, ...(force ? { force: true } : {}) })),
    )
    upsert(profileId, kind, result.status === 'saved' ? result.entity : result.server)
    return result
  }

  async function remove(profileId: string, kind: string, id: EntityId): Promise<void> {
    await call(profileId, kind, () => unwrap(api().entities.delete({ profileId, kind, id })))
    const target = state(profileId, kind)
    setRows(
      target,
      target.rows.filter((row) => !sameId(row.id, id)),
    )
  }

  /** Main asks where to save; null when the user cancels. Only the file's base name comes back. */
  async function exportCsv(
    profileId: string,
    kind: string,
    ids: EntityId[],
    columns: Array<{ key: string; title: string }>,
  ): Promise<{ fileName: string; rows: number } | null> {
    return unwrap(api().entities.exportCsv({ profileId, kind, ids, columns }))
  }

  return {
    kinds,
    kindsError,
    builtInKinds,
    state,
    peek,
    specFor,
    names,
    noteError,
    loadKinds,
    open,
    sync,
    cancelSync: mirror.cancelSync,
    get,
    create,
    update,
    remove,
    exportCsv,
  }
})
