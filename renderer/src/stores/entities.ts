import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowReactive } from 'vue'
import { sameId, type Draft, type Entity, type EntityId, type EntityKindSpec, type UpdateResult } from '@contract'
import { ApiError, api, unwrap } from '../api/bridge'
import { inferSpec } from '../domain/entities/inferSpec'
import type { JsonValue } from '../domain/entities/entityForm'

/** One kind's list for one profile. Rows are a plain array, replaced whole, never deeply reactive. */
export interface KindState {
  profileId: string
  kind: string
  rows: Entity[]
  syncedAt: string | null
  loaded: boolean
  loading: boolean
  /** A sync in flight: fetched of count; `streaming` when the rows shown grow as pages arrive. */
  sync: { fetched: number; count: number; requestId: string; streaming: boolean } | null
  /** The last load or sync failure, as a sentence. */
  error: string | null
  /** Why this kind is read-only (a 403 seen), or null. */
  readOnly: string | null
  /** While the rest of a long mirror crosses the bridge: how many rows it holds in all. */
  pendingTotal: number | null
}

export interface Offline {
  since: string
  reason: string
}

export type { UpdateResult }
export { sameId }

const STREAM_FLUSH_MS = 250

function newRequestId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `sync-${Date.now()}-${Math.random().toString(36).slice(2)}`
}

/** Rows fetched before the rest of a mirror: more than a screen, little enough to cross the bridge at once. */
const FIRST_SLICE = 300

export const useEntitiesStore = defineStore('entities', () => {
  const kinds = ref<EntityKindSpec[]>([])
  const kindsError = ref<string | null>(null)
  const states = shallowReactive(new Map<string, KindState>())
  const offline = ref<Record<string, Offline>>({})
  const throttle = ref<{ profileId: string | null; until: number } | null>(null)
  const now = ref(Date.now())
  const drafts = ref<Draft[]>([])
  const draftsProfileId = ref<string | null>(null)
  const streamBuffers = new Map<string, { rows: Entity[]; timer: ReturnType<typeof setTimeout> | null }>()
  const nameMaps = new WeakMap<Entity[], Map<string, string>>()
  let subscribed = false
  let ticker: ReturnType<typeof setInterval> | null = null

  const keyOf = (profileId: string, kind: string): string => `${profileId}\u0000${kind}`

  function state(profileId: string, kind: string): KindState {
    const key = keyOf(profileId, kind)
    let found = states.get(key)
    if (!found) {
      found = shallowReactive<KindState>({ profileId, kind, rows: markRaw([]), syncedAt: null, loaded: false, loading: false, sync: null, error: null, readOnly: null, pendingTotal: null })
      states.set(key, found)
    }
    return found
  }

  const EMPTY: Readonly<KindState> = Object.freeze({ profileId: '', kind: '', rows: markRaw([] as Entity[]), syncedAt: null, loaded: false, loading: false, sync: null, error: null, readOnly: null, pendingTotal: null })

  /** Reads a kind's state without creating it (safe inside computed values; tracks its creation). */
  function peek(profileId: string, kind: string): Readonly<KindState> {
    return states.get(keyOf(profileId, kind)) ?? EMPTY
  }

  function setRows(target: KindState, rows: Entity[]): void {
    target.rows = markRaw(rows)
  }

  function specFor(kind: string, profileId: string | null): EntityKindSpec {
    const builtIn = kinds.value.find((spec) => spec.kind === kind)
    if (builtIn) return builtIn
    return inferSpec(kind, profileId ? peek(profileId, kind).rows : [])
  }

  /** id (as text) → display name, from the mirror of `kind`. */
  function names(profileId: string, kind: string): Map<string, string> {
    const target = peek(profileId, kind)
    const cached = nameMaps.get(target.rows)
    if (cached) return cached
    const titleField = specFor(kind, profileId).titleField
    const map = new Map<string, string>()
    for (const row of target.rows) {
      const title = row[titleField]
      map.set(String(row.id), typeof title === 'string' && title !== '' ? title : `#${String(row.id)}`)
    }
    nameMaps.set(target.rows, map)
    return map
  }

  function subscribe(): void {
    if (subscribed) return
    subscribed = true
    api().onSyncProgress((progress) => {
      const target = states.get(keyOf(progress.profileId, progress.kind))
      if (!target?.sync) return
      target.sync = { ...target.sync, fetched: progress.fetched, count: progress.count }
      const key = keyOf(progress.profileId, progress.kind)
      const buffer = streamBuffers.get(key)
      if (!buffer) return
      for (const row of progress.rows) buffer.rows.push(row)
      if (target.sync.streaming && buffer.timer === null) {
        buffer.timer = setTimeout(() => {
          buffer.timer = null
          if (target.sync?.streaming) setRows(target, buffer.rows.slice())
        }, STREAM_FLUSH_MS)
      }
    })
    api().onThrottled((event) => {
      throttle.value = { profileId: event.profileId, until: Date.now() + event.waitSeconds * 1000 }
      startTicker()
    })
  }

  function startTicker(): void {
    now.value = Date.now()
    if (ticker !== null) return
    ticker = setInterval(() => {
      now.value = Date.now()
      if (throttle.value && throttle.value.until <= now.value) {
        throttle.value = null
        if (ticker !== null) clearInterval(ticker)
        ticker = null
      }
    }, 250)
  }

  /** Seconds left to wait for the platform (rate limit) for this profile, or 0. */
  function throttledFor(profileId: string): number {
    const current = throttle.value
    if (!current || (current.profileId !== null && current.profileId !== profileId)) return 0
    return Math.max(0, Math.ceil((current.until - now.value) / 1000))
  }

  /** Records what a failure means for the screen: offline, read-only or waiting. */
  function noteError(profileId: string, kind: string | null, error: unknown): ApiError {
    const apiError = error instanceof ApiError ? error : new ApiError({ code: 'internal', message: error instanceof Error ? error.message : String(error) })
    if (apiError.code === 'network') {
      offline.value = { ...offline.value, [profileId]: { since: new Date().toISOString(), reason: apiError.message } }
    } else if (apiError.code === 'forbidden' && kind !== null) {
      state(profileId, kind).readOnly = apiError.message
    } else if (apiError.code === 'throttled') {
      const seconds = Number(apiError.details?.retryAfterSeconds ?? 0)
      if (seconds > 0) {
        throttle.value = { profileId, until: Date.now() + seconds * 1000 }
        startTicker()
      }
    }
    return apiError
  }

  function online(profileId: string): void {
    if (!offline.value[profileId]) return
    const next = { ...offline.value }
    delete next[profileId]
    offline.value = next
  }

  async function loadKinds(): Promise<void> {
    if (kinds.value.length > 0) return
    try {
      kinds.value = await unwrap(api().entities.kinds({}))
      kindsError.value = null
    } catch (error) {
      kindsError.value = error instanceof Error ? error.message : String(error)
    }
  }

  /** Shows the mirror at once; syncs when the kind was never synced. */
  async function open(profileId: string, kind: string): Promise<void> {
    subscribe()
    const target = state(profileId, kind)
    if (target.loaded || target.loading) return
    target.loading = true
    try {
      // Marks let the benchmark split "open" into the bridge call and the rendering.
      performance.mark(`entities:mirror:${kind}:start`)
      // The first screenful first, so a long list paints at once; the rest follows in one call.
      const first = await unwrap(api().entities.mirror({ profileId, kind, offset: 0, limit: FIRST_SLICE }))
      performance.mark(`entities:mirror:${kind}:end`)
      setRows(target, first.rows)
      target.syncedAt = first.syncedAt
      target.error = null
      if (first.total > first.rows.length) {
        target.pendingTotal = first.total
        try {
          const rest = await unwrap(api().entities.mirror({ profileId, kind, offset: first.rows.length }))
          // Appending keeps the table's search and sort caches (same objects, in the same order).
          setRows(target, [...first.rows, ...rest.rows])
        } finally {
          target.pendingTotal = null
        }
      }
    } catch (error) {
      target.error = noteError(profileId, kind, error).message
    } finally {
      target.loading = false
      target.loaded = true
    }
    if (target.syncedAt === null && target.sync === null) await sync(profileId, kind)
  }

  /** Fetches every page again. The first sync shows rows as they stream in; a refresh swaps them at the end. */
  async function sync(profileId: string, kind: string): Promise<void> {
    subscribe()
    const target = state(profileId, kind)
    if (target.sync) return
    const key = keyOf(profileId, kind)
    const requestId = newRequestId()
    const streaming = target.rows.length === 0
    streamBuffers.set(key, { rows: [], timer: null })
    target.sync = { fetched: 0, count: 0, requestId, streaming }
    target.error = null
    try {
      const result = await unwrap(api().entities.sync({ profileId, kind, requestId }))
      const buffer = streamBuffers.get(key)
      if (buffer && buffer.rows.length === result.count) setRows(target, buffer.rows)
      else setRows(target, (await unwrap(api().entities.mirror({ profileId, kind }))).rows)
      target.syncedAt = result.syncedAt
      online(profileId)
      if (target.readOnly === null) target.error = null
    } catch (error) {
      const apiError = noteError(profileId, kind, error)
      target.error = apiError.code === 'cancelled' ? 'Sync cancelled' : apiError.message
      // A cancelled or failed first sync keeps what arrived; a refresh keeps the old rows.
      const buffer = streamBuffers.get(key)
      if (streaming && buffer && buffer.rows.length > 0) setRows(target, buffer.rows.slice())
    } finally {
      const buffer = streamBuffers.get(key)
      if (buffer?.timer) clearTimeout(buffer.timer)
      streamBuffers.delete(key)
      target.sync = null
    }
  }

  async function cancelSync(profileId: string, kind: string): Promise<void> {
    const requestId = state(profileId, kind).sync?.requestId
    if (requestId) await unwrap(api().requests.cancel({ requestId }))
  }

  function upsert(target: KindState, entity: Entity): void {
    const index = target.rows.findIndex((row) => sameId(row.id, entity.id))
    const next = target.rows.slice()
    if (index >= 0) next[index] = entity
    else next.push(entity)
    setRows(target, next)
  }

  async function get(profileId: string, kind: string, id: EntityId): Promise<Entity> {
    try {
      const entity = await unwrap(api().entities.get({ profileId, kind, id }))
      online(profileId)
      upsert(state(profileId, kind), entity)
      return entity
    } catch (error) {
      throw noteError(profileId, kind, error)
    }
  }

  async function create(profileId: string, kind: string, entity: Record<string, JsonValue>): Promise<Entity> {
    try {
      const created = await unwrap(api().entities.create({ profileId, kind, entity }))
      online(profileId)
      upsert(state(profileId, kind), created)
      return created
    } catch (error) {
      throw noteError(profileId, kind, error)
    }
  }

  async function update(profileId: string, kind: string, id: EntityId, original: Record<string, JsonValue>, changes: Record<string, JsonValue>, force = false): Promise<UpdateResult> {
    try {
      const result = await unwrap(api().entities.update({ profileId, kind, id, original, changes, ...(force ? { force: true } : {}) }))
      online(profileId)
      upsert(state(profileId, kind), result.status === 'saved' ? result.entity : result.server)
      return result
    } catch (error) {
      throw noteError(profileId, kind, error)
    }
  }

  async function remove(profileId: string, kind: string, id: EntityId): Promise<void> {
    try {
      await unwrap(api().entities.delete({ profileId, kind, id }))
      online(profileId)
      const target = state(profileId, kind)
      setRows(target, target.rows.filter((row) => !sameId(row.id, id)))
    } catch (error) {
      throw noteError(profileId, kind, error)
    }
  }

  async function exportCsv(profileId: string, kind: string, ids: EntityId[], columns: Array<{ key: string; title: string }>, path?: string): Promise<{ path: string; rows: number } | null> {
    return unwrap(api().entities.exportCsv({ profileId, kind, ids, columns, ...(path ? { path } : {}) }))
  }

  /* ---------- drafts ---------- */

  async function loadDrafts(profileId: string): Promise<void> {
    try {
      drafts.value = await unwrap(api().drafts.list({ profileId }))
      draftsProfileId.value = profileId
    } catch {
      drafts.value = []
    }
  }

  function draftFor(kind: string, key: string): Draft | undefined {
    return drafts.value.find((draft) => draft.kind === kind && draft.key === key)
  }

  async function saveDraft(profileId: string, kind: string, key: string, draft: Record<string, JsonValue>, original: Record<string, JsonValue> | null): Promise<void> {
    await unwrap(api().drafts.save({ profileId, kind, key, draft, original }))
    const saved: Draft = { kind, key, draft, original, savedAt: new Date().toISOString() }
    drafts.value = [...drafts.value.filter((existing) => !(existing.kind === kind && existing.key === key)), saved]
  }

  async function discardDraft(profileId: string, kind: string, key: string): Promise<void> {
    drafts.value = drafts.value.filter((existing) => !(existing.kind === kind && existing.key === key))
    await unwrap(api().drafts.discard({ profileId, kind, key }))
  }

  const builtInKinds = computed(() => kinds.value.map((spec) => spec.kind))

  return {
    kinds, kindsError, builtInKinds, offline, throttle, drafts, draftsProfileId, now,
    state, peek, specFor, names, throttledFor, noteError, loadKinds, open, sync, cancelSync,
    get, create, update, remove, exportCsv, loadDrafts, draftFor, saveDraft, discardDraft,
  }
})
