import path from 'node:path'
import { z } from 'zod'
import { draftSchema, type Draft } from '@contract'
import { readJsonFileOr, safeFileName, writeJsonFile } from '../files/json-file'
import { createSerialQueue } from '../files/serial-queue'
import type { Notices } from '../notices'

const draftsFileSchema = z.object({ version: z.literal(1), drafts: z.array(draftSchema) })

/** Unsaved entity forms, per profile, on disk: nothing typed is lost to a reload or a crash. */
export interface DraftsStore {
  list(profileId: string): Promise<Draft[]>
  save(profileId: string, draft: Omit<Draft, 'savedAt'>): Promise<void>
  discard(profileId: string, kind: string, key: string): Promise<void>
}

export function createDraftsStore(userDataDir: string, notices: Notices, now: () => Date = () => new Date()): DraftsStore {
  const cache = new Map<string, Promise<Draft[]>>()
  const serial = createSerialQueue()
  const fileOf = (profileId: string) => path.join(userDataDir, 'drafts', `${safeFileName(profileId)}.json`)

  function read(profileId: string): Promise<Draft[]> {
    let cached = cache.get(profileId)
    if (!cached) {
      cached = readJsonFileOr(fileOf(profileId), draftsFileSchema, { version: 1, drafts: [] }, ({ reason, movedTo }) =>
        notices.add({ level: 'warning', message: `Your unsaved drafts could not be read because ${reason}. The file was moved aside.`, details: { movedTo } }),
      ).then((file) => file.drafts)
      cache.set(profileId, cached)
    }
    return cached
  }

  function change(profileId: string, apply: (drafts: Draft[]) => Draft[]): Promise<void> {
    return serial(async () => {
      const next = apply(await read(profileId))
      cache.set(profileId, Promise.resolve(next))
      await writeJsonFile(fileOf(profileId), { version: 1, drafts: next })
    })
  }

  const same = (draft: Draft, kind: string, key: string) => draft.kind === kind && draft.key === key

  return {
    list: read,
    save: (profileId, draft) =>
      change(profileId, (drafts) => [...drafts.filter((existing) => !same(existing, draft.kind, draft.key)), { ...draft, savedAt: now().toISOString() }]),
    discard: (profileId, kind, key) => change(profileId, (drafts) => drafts.filter((existing) => !same(existing, kind, key))),
  }
}
