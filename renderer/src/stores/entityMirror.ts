import { markRaw } from 'vue'
import type { Entity, EventPayload } from '@contract'
import { api, unwrap, type ApiError } from '../api/bridge'
import { idleOrTask, inputPause, pageTypingQuiet, type IdleScheduler, type InputQuiet } from '../lib/idle'
import { newRequestId } from '../lib/requestId'

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

export function blankKindState(profileId: string, kind: string): KindState {
  return { profileId, kind, rows: markRaw([]), syncedAt: null, loaded: false, loading: false, sync: null, error: null, readOnly: null, pendingTotal: null }
}

/** Rows are marked raw: a 100,000-row list must never become 100,000 proxies. */
export function setRows(target: KindState, rows: Entity[]): void {
  target.rows = markRaw(rows)
}

/** Rows fetched before the rest of a mirror: more than a screen, little enough to cross the bridge at once. */
const FIRST_SLICE = 300
/**
 * The rest of a mirror crosses the bridge in calls of this many rows (about half a megabyte).
 * The page decodes each answer in one task that no script can interrupt: 100,000 rows in one
 * answer (11 MB) took 0.3 to 1 s of decoding plus garbage collection, and a key pressed in
 * the search box meanwhile waited all of it. Slices this size keep each such task short.
 */
const REST_SLICE = 5_000
/** While a first sync streams in, the list shown grows at most this often. */
const STREAM_FLUSH_MS = 250
/**
 * While the rest of a mirror arrives, the list shown grows at most this often. Each growth copies
 * the list, lets the table check it grew only at the end and runs the search again over the new
 * rows: once per 5,000-row slice that was twenty times, during the first keystrokes typed.
 */
const REST_FLUSH_MS = 200

/** A step of a long list arriving is shown within this long even on a page that is never idle. */
const REST_IDLE_TIMEOUT_MS = 200

/**
 * The next slice of the rest is asked for once no key has been pressed for this long, or after
 * REST_LONGEST_PAUSE_MS of typing without such a pause. Its answer is decoded in one task, and
 * a scavenge of the rows it made follows (6 to 11 ms each, traced in the entities bench):
 * landing between a key and its frame, they pushed the rows for that key a frame later.
 */
const REST_QUIET_MS = 100
const REST_LONGEST_PAUSE_MS = 1_000

/**
 * Resolves in an idle moment of the page: an answer decoded in one task is shown later, when
 * the page has nothing else to do, so a key pressed meanwhile is searched and painted first
 * instead of after the rows shown grew (a re-render, and a search extended over the new rows).
 */
function idleMoment(idle: IdleScheduler): Promise<void> {
  return new Promise((resolve) => void idle.request(() => resolve()))
}

export interface MirrorDependencies {
  /** The state of a kind's list, created on first use. */
  state: (profileId: string, kind: string) => KindState
  /** Records what a failure means (offline, read-only, waiting) and returns it as an ApiError. */
  noteError: (profileId: string, kind: string, error: unknown) => ApiError
  /** A call went through: the platform is reachable again. */
  online: (profileId: string) => void
  /** When to show the next step of a long list arriving (tests pass their own). */
  idle?: IdleScheduler
  /** The user's typing, which the rest of a long list waits to pause (tests pass their own). */
  inputQuiet?: InputQuiet
}

/**
 * Fills kinds' lists from main: the local mirror at once (first screenful first), then a sync
 * of every page, whose rows are shown as they stream in when the list was empty.
 */
export function createMirrorLoader({ state, noteError, online, idle = idleOrTask(REST_IDLE_TIMEOUT_MS), inputQuiet = pageTypingQuiet }: MirrorDependencies) {
  /** Rows received so far by each sync in flight, by `profileId/kind`. */
  const streams = new Map<string, { rows: Entity[]; timer: ReturnType<typeof setTimeout> | null }>()
  const keyOf = (profileId: string, kind: string): string => `${profileId}\u0000${kind}`

  /** A page of a sync arrived (main's progress event). */
  function progress(event: EventPayload<'onSyncProgress'>): void {
    // Only a sync in flight has a stream (and, so, a state): events for other lists are ignored.
    const stream = streams.get(keyOf(event.profileId, event.kind))
    if (!stream) return
    const target = state(event.profileId, event.kind)
    if (!target.sync) return
    target.sync = { ...target.sync, fetched: event.fetched, count: event.count }
    for (const row of event.rows) stream.rows.push(row)
    if (target.sync.streaming && stream.timer === null) {
      stream.timer = setTimeout(() => {
        stream.timer = null
        if (target.sync?.streaming) setRows(target, stream.rows.slice())
      }, STREAM_FLUSH_MS)
    }
  }

  /** Shows the mirror at once; syncs when the kind was never synced. */
  async function open(profileId: string, kind: string): Promise<void> {
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
          // Gathered here and shown in steps; a list once shown is never changed in place (caches are kept by list).
          const rows = first.rows.slice()
          let shownAt = performance.now()
          for (;;) {
            await inputPause(inputQuiet, REST_QUIET_MS, REST_LONGEST_PAUSE_MS)
            const rest = await unwrap(api().entities.mirror({ profileId, kind, offset: rows.length, limit: REST_SLICE }))
            for (const row of rest.rows) rows.push(row)
            const last = rest.rows.length < REST_SLICE || rows.length >= rest.total
            if (last || performance.now() - shownAt >= REST_FLUSH_MS) {
              await idleMoment(idle)
              // Appending keeps the table's search and sort caches (same objects, in the same order).
              setRows(target, last ? rows : rows.slice())
              shownAt = performance.now()
            }
            if (last) break
          }
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
    const target = state(profileId, kind)
    if (target.sync) return
    const key = keyOf(profileId, kind)
    const requestId = newRequestId('sync')
    const streaming = target.rows.length === 0
    const stream: { rows: Entity[]; timer: ReturnType<typeof setTimeout> | null } = { rows: [], timer: null }
    streams.set(key, stream)
    target.sync = { fetched: 0, count: 0, requestId, streaming }
    target.error = null
    try {
      const result = await unwrap(api().entities.sync({ profileId, kind, requestId }))
      if (stream.rows.length === result.count) setRows(target, stream.rows)
      else setRows(target, (await unwrap(api().entities.mirror({ profileId, kind }))).rows)
      target.syncedAt = result.syncedAt
      online(profileId)
      if (target.readOnly === null) target.error = null
    } catch (error) {
      const apiError = noteError(profileId, kind, error)
      target.error = apiError.code === 'cancelled' ? 'Sync cancelled' : apiError.message
      // A cancelled or failed first sync keeps what arrived; a refresh keeps the old rows.
      if (streaming && stream.rows.length > 0) setRows(target, stream.rows.slice())
    } finally {
      if (stream.timer !== null) clearTimeout(stream.timer)
      streams.delete(key)
      target.sync = null
    }
  }

  async function cancelSync(profileId: string, kind: string): Promise<void> {
    const requestId = state(profileId, kind).sync?.requestId
    if (requestId) await unwrap(api().requests.cancel({ requestId }))
  }

  return { progress, open, sync, cancelSync }
}
