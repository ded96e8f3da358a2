import path from 'node:path'
import { z } from 'zod'
import { createKeyedDocumentStore, noticeOnCorrupt } from '../files/document-store'
import type { Notices } from '../notices'
import { isReportTimezone } from '../reporting/report-timezone'
import { reportInfoSchema, type ReportInfo } from '../reporting/schemas'

/**
 * The copies of `info` kept on disk, per connection (profile), project and report, so the
 * builder opens offline. One small interface over the shared keyed document store.
 */
export interface StoredInfo {
  project: string
  report: string
  fetchedAt: string
  /** The platform's answer as received; normalised when read, so a newer app reads old copies. */
  info: ReportInfo
}

export interface InfoStore {
  read(profileId: string, project: string, report: string): Promise<StoredInfo | null>
  write(profileId: string, entry: StoredInfo): Promise<void>
  /** Every pair kept for the profile, in no particular order. */
  list(profileId: string): Promise<Array<Omit<StoredInfo, 'info'>>>
  /** A deleted connection's copies go with it. */
  removeProfile(profileId: string): Promise<void>
}

/** A copy keeps only a timezone the app can use (the client refuses others): one kept by an older version is fetched again. */
const storedInfoSchema = reportInfoSchema.refine(
  (info) => info.timezone === undefined || isReportTimezone(info.timezone),
  'the report timezone is not a whole number of hours from -12 to +12',
)
const fileSchema = z.object({ version: z.literal(1), project: z.string(), report: z.string(), fetchedAt: z.string(), info: storedInfoSchema }).nullable()
type InfoKey = readonly [profileId: string, project: string, report: string]

export function createDiskInfoStore(userDataDir: string, notices: Notices): InfoStore {
  const files = createKeyedDocumentStore<typeof fileSchema, InfoKey>({
    folder: path.join(userDataDir, 'reports', 'info'),
    schema: fileSchema,
    fallback: () => null,
    onCorrupt: noticeOnCorrupt(
      notices,
      'warning',
      (corrupt) => `A saved report description could not be read because ${corrupt.reason}. It was moved aside and will be fetched again.`,
    ),
  })
  const present = (file: z.output<typeof fileSchema>): StoredInfo | null =>
    file === null ? null : { project: file.project, report: file.report, fetchedAt: file.fetchedAt, info: file.info }

  return {
    async read(profileId, project, report) {
      return present(await files.read([profileId, project, report]))
    },
    write(profileId, entry) {
      return files.write([profileId, entry.project, entry.report], { version: 1, ...entry })
    },
    async list(profileId) {
      const keys = (await files.keys()).filter((key) => key[0] === profileId)
      const entries = await Promise.all(keys.map(async (key) => present(await files.read(key))))
      return entries.filter((entry): entry is StoredInfo => entry !== null).map(({ project, report, fetchedAt }) => ({ project, report, fetchedAt }))
    },
    removeProfile(profileId) {
      return files.removeAll([profileId])
    },
  }
}
