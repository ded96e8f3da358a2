import path from 'node:path'
import { AppError } from '../errors'
import type { Notices } from '../notices'
import type { ExportFs } from './fs'
import { JOB_HISTORY_LIMIT, type ExportJobHistory, type ExportRecord } from './job-history'
import { QUIT_SENTENCE } from './job'

/**
 * Every export this run knows, by id: the history on disk (read once; jobs a previous run left
 * queued or running are marked interrupted and their temporary files removed) and this run's
 * jobs, each change kept here for the list and written to the history when it matters.
 */
export interface JobRecords {
  /** Reads the history once; every later call waits for that same read. */
  ready(): Promise<void>
  get(jobId: string): ExportRecord | undefined
  set(record: ExportRecord): void
  /** Newest first. */
  list(): ExportRecord[]
  /** Writes the record into the history; a failed write is a notice, never the job's failure. */
  persist(record: ExportRecord): Promise<void>
}

export interface JobRecordsOptions {
  jobHistory: ExportJobHistory
  notices: Pick<Notices, 'add'>
  fs: Pick<ExportFs, 'readdir' | 'rm'>
}

const isActive = (record: ExportRecord): boolean => record.state === 'queued' || record.state === 'running'

const newestFirst = (left: ExportRecord, right: ExportRecord): number => (left.createdAt < right.createdAt ? 1 : left.createdAt > right.createdAt ? -1 : 0)

export function createJobRecords({ jobHistory, notices, fs }: JobRecordsOptions): JobRecords {
  const records = new Map<string, ExportRecord>()
  let loaded: Promise<void> | null = null

  /** A temporary file a quit left beside its target (save-export.ts names them `.<name>.<hex>.tmp`). */
  async function removeLeftovers(target: string): Promise<void> {
    const folder = path.dirname(target)
    const prefix = `.${path.basename(target)}.`
    const names = await fs.readdir(folder).catch(() => [] as string[])
    for (const name of names) {
      if (name.startsWith(prefix) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(prefix.length)))
        await fs.rm(path.join(folder, name), { force: true }).catch(() => undefined)
    }
  }

  async function persist(record: ExportRecord): Promise<void> {
    try {
      await jobHistory.update(({ jobs }) => {
        const others = jobs.filter((job) => job.id !== record.id)
        return { jobs: [record, ...others].sort(newestFirst).slice(0, JOB_HISTORY_LIMIT) }
      })
    } catch (error) {
      // The job itself is not affected; the user should know its line may be missing after a restart.
      notices.add({ level: 'warning', message: error instanceof AppError ? error.message : 'The exports history could not be saved.' })
    }
  }

  function ready(): Promise<void> {
    loaded ??= (async () => {
      const { jobs } = await jobHistory.read()
      const interrupted: ExportRecord[] = []
      for (const record of jobs) {
        if (isActive(record)) {
          const marked: ExportRecord = { ...record, state: 'interrupted', endedAt: record.endedAt ?? record.startedAt, error: QUIT_SENTENCE }
          interrupted.push(marked)
          records.set(record.id, marked)
        } else records.set(record.id, record)
      }
      for (const record of interrupted) {
        await removeLeftovers(record.path)
        await persist(record)
      }
    })()
    return loaded
  }

  return {
    ready,
    get: (jobId) => records.get(jobId),
    set: (record) => void records.set(record.id, record),
    list: () => [...records.values()].sort(newestFirst),
    persist,
  }
}
