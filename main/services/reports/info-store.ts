import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../files/atomic'
import { readJsonFile, safeFileName } from '../files/json-file'
import { createSerialQueue, type SerialQueue } from '../files/serial-queue'
import type { Notices } from '../notices'
import { reportInfoSchema, type ReportInfo } from '../reporting/schemas'

/**
 * The copies of `info` kept on disk, per connection (profile), project and report, so the
 * builder opens offline. Kept behind this small interface, in this one file, so it can move
 * onto the shared document store without touching its users.
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
}

const fileSchema = z.object({ version: z.literal(1), project: z.string(), report: z.string(), fetchedAt: z.string(), info: reportInfoSchema })

export function createDiskInfoStore(userDataDir: string, notices: Notices): InfoStore {
  const folderOf = (profileId: string) => path.join(userDataDir, 'reports', 'info', safeFileName(profileId))
  // safeFileName never leaves a dot, so the dot between the two names cannot be confused with one inside them.
  const fileOf = (profileId: string, project: string, report: string) => path.join(folderOf(profileId), `${safeFileName(project)}.${safeFileName(report)}.json`)
  const queues = new Map<string, SerialQueue>()

  function serialised<T>(file: string, work: () => Promise<T>): Promise<T> {
    let queue = queues.get(file)
    if (!queue) queues.set(file, (queue = createSerialQueue()))
    return queue(work)
  }

  async function readFile(file: string): Promise<StoredInfo | null> {
    const read = await readJsonFile(file, fileSchema)
    if (read.state === 'ok') return { project: read.value.project, report: read.value.report, fetchedAt: read.value.fetchedAt, info: read.value.info }
    if (read.state === 'corrupt') {
      notices.add({ level: 'warning', message: `A saved report description could not be read because ${read.reason}. It was moved aside and will be fetched again.`, details: { movedTo: read.movedTo } })
    }
    return null
  }

  return {
    read(profileId, project, report) {
      const file = fileOf(profileId, project, report)
      return serialised(file, () => readFile(file))
    },
    write(profileId, entry) {
      const file = fileOf(profileId, entry.project, entry.report)
      return serialised(file, () => writeFileAtomic(file, `${JSON.stringify({ version: 1, ...entry }, null, 2)}\n`))
    },
    async list(profileId) {
      const folder = folderOf(profileId)
      const names = await fs.readdir(folder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [] as string[]
        throw error
      })
      const entries = await Promise.all(
        names.filter((name) => name.endsWith('.json') && !name.startsWith('.')).map((name) => {
          const file = path.join(folder, name)
          return serialised(file, () => readFile(file))
        }),
      )
      return entries.filter((entry): entry is StoredInfo => entry !== null).map(({ project, report, fetchedAt }) => ({ project, report, fetchedAt }))
    },
  }
}
