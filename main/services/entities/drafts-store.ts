import path from 'node:path'
import { z } from 'zod'
import { draftSchema, type Draft } from '@contract'
import { createKeyedDocumentStore, noticeOnCorrupt } from '../files/document-store'
import type { Notices } from '../notices'

const draftsFileSchema = z.object({ version: z.literal(1), drafts: z.array(draftSchema) })

/** Unsaved entity forms, per profile, on disk: nothing typed is lost to a reload or a crash. */
export interface DraftsStore {
  list(profileId: string): Promise<Draft[]>
  save(profileId: string, draft: Omit<Draft, 'savedAt'>): Promise<void>
  discard(profileId: string, kind: string, key: string): Promise<void>
  /** Deletes every draft of a profile (it was deleted). */
  removeProfile(profileId: string): Promise<void>
}

export function createDraftsStore(userDataDir: string, notices: Notices, now: () => Date = () => new Date()): DraftsStore {
  const files = createKeyedDocumentStore<typeof draftsFileSchema, readonly [profileId: string]>({
    folder: path.join(userDataDir, 'drafts'),
    schema: draftsFileSchema,
    fallback: () => ({ version: 1, drafts: [] }),
    onCorrupt: noticeOnCorrupt(notices, 'warning', ({ reason }) => `Your unsaved drafts could not be read because ${reason}. The file was moved aside.`),
  })

  async function change(profileId: string, apply: (drafts: Draft[]) => Draft[]): Promise<void> {
    await files.update([profileId], (file) => ({ ...file, drafts: apply(file.drafts) }))
  }

  const same = (draft: Draft, kind: string, key: string) => draft.kind === kind && draft.key === key

  return {
    list: async (profileId) => (await files.read([profileId])).drafts,
    save: (profileId, draft) =>
      change(profileId, (drafts) => [...drafts.filter((existing) => !same(existing, draft.kind, draft.key)), { ...draft, savedAt: now().toISOString() }]),
    discard: (profileId, kind, key) => change(profileId, (drafts) => drafts.filter((existing) => !same(existing, kind, key))),
    removeProfile: (profileId) => files.removeAll([profileId]),
  }
}
