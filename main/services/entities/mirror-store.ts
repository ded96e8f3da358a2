import path from 'node:path'
import { z } from 'zod'
import type { Entity } from '@contract'
import { readJsonFileOr, safeFileName, writeJsonFile } from '../files/json-file'
import { createSerialQueue, type SerialQueue } from '../files/serial-queue'
import type { Notices } from '../notices'

export interface Mirror {
  rows: Entity[]
  /** When the last full sync finished; null when the list was never fetched. */
  syncedAt: string | null
}

// Rows are checked as a whole with one cheap predicate: 100,000 publishers must open fast.
const rowsSchema = z.custom<Entity[]>(
  (value) => Array.isArray(value) && value.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row) && 'id' in row),
  'every row must be an entity with an id',
)
const mirrorFileSchema = z.object({ version: z.literal(1), kind: z.string(), syncedAt: z.string().nullable(), rows: rowsSchema })

/**
 * The local copy of each kind's list, per profile, on disk so a list opens instantly and
 * stays readable offline. Kept in memory once read; every change is written atomically.
 */
export interface MirrorStore {
  read(profileId: string, kind: string): Promise<Mirror>
  write(profileId: string, kind: string, mirror: Mirror): Promise<void>
  /** Applies a change to the cached copy and persists it. */
  change(profileId: string, kind: string, apply: (rows: Entity[]) => Entity[]): Promise<Mirror>
}

export function createMirrorStore(userDataDir: string, notices: Notices): MirrorStore {
  const cache = new Map<string, Promise<Mirror>>()
  const queues = new Map<string, SerialQueue>()
  const fileOf = (profileId: string, kind: string) => path.join(userDataDir, 'mirrors', safeFileName(profileId), `${kind}.json`)
  const keyOf = (profileId: string, kind: string) => `${profileId}\u0000${kind}`

  function read(profileId: string, kind: string): Promise<Mirror> {
    const key = keyOf(profileId, kind)
    let cached = cache.get(key)
    if (!cached) {
      cached = readJsonFileOr(fileOf(profileId, kind), mirrorFileSchema, { version: 1, kind, syncedAt: null, rows: [] }, ({ reason, movedTo }) =>
        notices.add({ level: 'warning', message: `The saved copy of the ${kind.replace(/_/g, ' ')} list could not be read because ${reason}. It was moved aside and will be fetched again.`, details: { movedTo } }),
      ).then((file) => ({ rows: file.rows, syncedAt: file.syncedAt }))
      cache.set(key, cached)
    }
    return cached
  }

  /** One queue per file: writes to different lists need not wait for each other. */
  function serialised<T>(key: string, work: () => Promise<T>): Promise<T> {
    let queue = queues.get(key)
    if (!queue) queues.set(key, (queue = createSerialQueue()))
    return queue(work)
  }

  async function persist(profileId: string, kind: string, mirror: Mirror): Promise<void> {
    await writeJsonFile(fileOf(profileId, kind), { version: 1, kind, syncedAt: mirror.syncedAt, rows: mirror.rows })
  }

  return {
    read,
    write(profileId, kind, mirror) {
      const key = keyOf(profileId, kind)
      return serialised(key, async () => {
        cache.set(key, Promise.resolve(mirror))
        await persist(profileId, kind, mirror)
      })
    },
    change(profileId, kind, apply) {
      const key = keyOf(profileId, kind)
      return serialised(key, async () => {
        const current = await read(profileId, kind)
        const next = { rows: apply(current.rows), syncedAt: current.syncedAt }
        cache.set(key, Promise.resolve(next))
        await persist(profileId, kind, next)
        return next
      })
    },
  }
}
