import path from 'node:path'
import { z } from 'zod'
import type { Entity } from '@contract'
import { createKeyedDocumentStore, noticeOnCorrupt } from '../files/document-store'
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
type MirrorFile = z.infer<typeof mirrorFileSchema>

/**
 * The local copy of each kind's list, per profile, on disk so a list opens instantly and
 * stays readable offline. Kept in memory once read; every change is written atomically.
 */
export interface MirrorStore {
  read(profileId: string, kind: string): Promise<Mirror>
  write(profileId: string, kind: string, mirror: Mirror): Promise<void>
  /** Applies a change to the cached copy and persists it. */
  change(profileId: string, kind: string, apply: (rows: Entity[]) => Entity[]): Promise<Mirror>
  /** Deletes every list kept for a profile (it was deleted). */
  removeProfile(profileId: string): Promise<void>
}

export function createMirrorStore(userDataDir: string, notices: Notices): MirrorStore {
  // One file per list, mirrors/<profile>/<kind>.json, each with its own write queue: lists need not wait for each other.
  const files = createKeyedDocumentStore<typeof mirrorFileSchema, readonly [profileId: string, kind: string]>({
    folder: path.join(userDataDir, 'mirrors'),
    schema: mirrorFileSchema,
    fallback: ([, kind]) => ({ version: 1, kind, syncedAt: null, rows: [] }),
    onCorrupt: noticeOnCorrupt(
      notices,
      'warning',
      ({ reason, key: [, kind] }) =>
        `The saved copy of the ${kind.replace(/_/g, ' ')} list could not be read because ${reason}. It was moved aside and will be fetched again.`,
    ),
  })

  const fileOf = (kind: string, mirror: Mirror): MirrorFile => ({ version: 1, kind, syncedAt: mirror.syncedAt, rows: mirror.rows })
  const mirrorOf = (file: MirrorFile): Mirror => ({ rows: file.rows, syncedAt: file.syncedAt })

  return {
    read: async (profileId, kind) => mirrorOf(await files.read([profileId, kind])),
    write: (profileId, kind, mirror) => files.write([profileId, kind], fileOf(kind, mirror)),
    change: async (profileId, kind, apply) =>
      mirrorOf(await files.update([profileId, kind], (file) => fileOf(kind, { rows: apply(file.rows), syncedAt: file.syncedAt }))),
    removeProfile: (profileId) => files.removeAll([profileId]),
  }
}
