import path from 'node:path'
import { z } from 'zod'
import { exportJobSchema, type ExportJob } from '@contract'
import { createDocumentStore, noticeOnCorrupt, type DocumentStore } from '../files/document-store'
import type { Notices } from '../notices'

/**
 * The exports history on disk: every job from the moment it is queued, so a job that was
 * running when the app quit is found at the next start (and marked interrupted), not lost.
 * The full path of each file stays here, in main; the page gets `ExportJob`, which has none.
 */
export const exportRecordSchema = exportJobSchema.extend({
  /** Where the file is (or was to be) written; never sent to the page. */
  path: z.string(),
  /** Why it failed as an error code (`network`, `storage`…), for a scheduled run deciding whether to try again; main only. */
  failureCode: z.string().nullable().optional(),
})
export type ExportRecord = z.infer<typeof exportRecordSchema>

const historySchema = z.object({ jobs: z.array(exportRecordSchema) })

/** The newest jobs kept; older ones drop off the list (their files stay on disk). */
export const HISTORY_LIMIT = 500

export type ExportHistory = DocumentStore<z.infer<typeof historySchema>>

export function exportHistoryFile(userDataDir: string): string {
  // Not under `exports/`: that folder is the web host's download folder, the user's files only.
  return path.join(userDataDir, 'export-history.json')
}

export function createExportHistory(filePath: string, notices: Pick<Notices, 'add'>): ExportHistory {
  return createDocumentStore({
    filePath,
    schema: historySchema,
    fallback: { jobs: [] },
    saveFailed: 'The exports history could not be saved. Check that the disk is not full; your exported files are not affected.',
    onCorrupt: noticeOnCorrupt(
      notices,
      'warning',
      (corrupt) => `The exports history could not be read, because ${corrupt.reason}. It was moved aside and a new one started.`,
    ),
  })
}

/** What the page may see of a record: everything but the path. */
export function jobView({ path: _path, failureCode: _failureCode, ...job }: ExportRecord): ExportJob {
  return job
}
