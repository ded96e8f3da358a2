import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { BatchSummary, ChangeLog, ChangeQuery, ChangeRecord } from '../bulk/apply-types'
import { AppError } from '../errors'
import { writeFileAtomic } from '../files/atomic'
import { refuseUnreadable } from '../files/checked-write'
import { csvRow } from '../files/csv'
import { safeFileName } from '../files/json-file'
import { openAppendFile, type AppendFile } from '../files/append-file'
import { changeRecordSchema } from './change-record'
import { planRevert, undoneChanges } from './revert'

/**
 * Every write made from the app, per connection: `<userData>/changes/<profile>.jsonl`, one
 * record a line, appended and synced. Reads are bounded: only the newest `maxReadBytes` of a
 * file are read (the oldest history beyond them is left on disk, not loaded), and a line torn
 * by a kill mid-write is skipped. Every record is read against its whole schema: one that does
 * not match (written by hand, say) is left out of lists, and a revert that names it is refused.
 */

export const changesFolder = (userDataDir: string): string => path.join(userDataDir, 'changes')

/** How much of a connection's log is read at once: some hundred thousand changes. */
export const MAX_CHANGE_LOG_READ_BYTES = 64 * 1024 * 1024
const DEFAULT_PAGE = 200

export interface ChangeLogOptions {
  folder: string
  maxReadBytes?: number
}

const CSV_COLUMNS = ['change', 'batch', 'source', 'title', 'at', 'kind', 'id', 'outcome', 'reason', 'before', 'after'] as const

/** A line that is JSON but not a whole record: named by its change and batch when it has them, so a revert of it is refused. */
export interface DamagedChange {
  change: string | null
  batch: string | null
}

const textOf = (value: unknown, key: string): string | null => {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
  return typeof field === 'string' ? field : null
}

/** The query's filters as one test; `text` is every word, matched in the kind, id, title and values. */
export function matcher(query: ChangeQuery): (record: ChangeRecord) => boolean {
  const words = (query.text ?? '')
    .toLocaleLowerCase('en-US')
    .split(/\s+/)
    .filter((word) => word !== '')
  const since = query.since === undefined ? null : Date.parse(query.since)
  return (record) => {
    if (query.kind !== undefined && record.kind !== query.kind) return false
    if (query.id !== undefined && (record.id === null || String(record.id) !== String(query.id))) return false
    if (query.batch !== undefined && record.batch !== query.batch) return false
    if (query.outcome !== undefined && record.outcome !== query.outcome) return false
    if (since !== null && !Number.isNaN(since) && Date.parse(record.at) < since) return false
    if (words.length === 0) return true
    const haystack = [record.kind, String(record.id ?? ''), record.title ?? '', JSON.stringify(record.before), JSON.stringify(record.after)]
      .join('\n')
      .toLocaleLowerCase('en-US')
    return words.every((word) => haystack.includes(word))
  }
}

export function createChangeLog({ folder, maxReadBytes = MAX_CHANGE_LOG_READ_BYTES }: ChangeLogOptions): ChangeLog {
  const appenders = new Map<string, Promise<AppendFile>>()
  const fileOf = (profileId: string): string => path.join(folder, `${safeFileName(profileId)}.jsonl`)
  /** One appender per log, kept open: concurrent rows share its disk syncs. */
  function appenderOf(profileId: string): Promise<AppendFile> {
    let appender = appenders.get(profileId)
    if (appender === undefined) {
      appender = endTornLine(fileOf(profileId)).then(() => openAppendFile(fileOf(profileId)))
      appenders.set(profileId, appender)
    }
    return appender
  }

  /** Oldest first; the newest `maxReadBytes` of the file at most. */
  async function readAll(profileId: string): Promise<ChangeRecord[]> {
    return (await readChecked(profileId)).records
  }

  async function readChecked(profileId: string): Promise<{ records: ChangeRecord[]; damaged: DamagedChange[] }> {
    const file = fileOf(profileId)
    let handle
    try {
      handle = await fs.open(file, 'r')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], damaged: [] }
      throw unreadable(error)
    }
    let text: string
    try {
      const { size } = await handle.stat()
      const start = Math.max(0, size - maxReadBytes)
      const buffer = Buffer.alloc(size - start)
      await handle.read(buffer, 0, buffer.length, start)
      text = buffer.toString('utf8')
      // A read that starts inside the file starts inside a line: that line is dropped.
      if (start > 0) text = text.slice(text.indexOf('\n') + 1)
    } finally {
      await handle.close()
    }
    const records: ChangeRecord[] = []
    const damaged: DamagedChange[] = []
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue
      let parsed: unknown
      try {
        parsed = JSON.parse(line)
      } catch {
        // A line torn by a kill mid-write: the rest of the log is still good.
        continue
      }
      const record = changeRecordSchema.safeParse(parsed)
      if (record.success) records.push(record.data)
      else damaged.push({ change: textOf(parsed, 'change'), batch: textOf(parsed, 'batch') })
    }
    return { records, damaged }
  }

  /** The matches newest first, and the changes a revert undid (of the whole log read). */
  async function matching(profileId: string, query: ChangeQuery): Promise<{ found: ChangeRecord[]; undone: Set<string> }> {
    const test = matcher(query)
    const records = await readAll(profileId)
    return { found: records.filter(test).reverse(), undone: undoneChanges(records) }
  }

  return {
    async record(records) {
      const byProfile = new Map<string, ChangeRecord[]>()
      for (const record of records) byProfile.set(record.profileId, [...(byProfile.get(record.profileId) ?? []), record])
      for (const [profileId, own] of byProfile) {
        // Each record is checked before any is appended: a batch's records land together or not at all.
        for (const record of own) refuseUnreadable(record, changeRecordSchema, 'The change log')
        const lines = own.map((record) => `${JSON.stringify(record)}\n`).join('')
        await (await appenderOf(profileId)).append(lines, true)
      }
    },

    async list(profileId, query) {
      const { found, undone } = await matching(profileId, query)
      const offset = query.offset ?? 0
      const records = found.slice(offset, offset + (query.limit ?? DEFAULT_PAGE))
      return { total: found.length, records, reverted: records.filter((record) => undone.has(record.change)).map((record) => record.change) }
    },

    async batches(profileId) {
      const byBatch = new Map<string, BatchSummary>()
      const records = await readAll(profileId)
      const undone = undoneChanges(records)
      for (const record of records.reverse()) {
        const revertible = record.outcome === 'applied' && !undone.has(record.change) ? 1 : 0
        const known = byBatch.get(record.batch)
        if (known !== undefined) {
          known.changes += 1
          known.revertible += revertible
          // Newest first in the walk: the batch's time ends as its first write's.
          known.at = record.at
        } else {
          byBatch.set(record.batch, {
            batch: record.batch,
            source: record.source,
            title: record.title ?? `${record.kind} ${record.source}`,
            kind: record.kind,
            at: record.at,
            changes: 1,
            revertible,
          })
        }
      }
      return [...byBatch.values()]
    },

    async exportCsv(profileId, query, file) {
      const { found } = await matching(profileId, query)
      const parts = [csvRow(CSV_COLUMNS)]
      for (const record of found) parts.push(csvRow(CSV_COLUMNS.map((column) => record[column] ?? null)))
      try {
        await writeFileAtomic(file, parts.join(''))
      } catch (error) {
        throw new AppError(
          'storage',
          `${path.basename(file)} could not be written in ${path.basename(path.dirname(file))}. Check that the folder still exists, that you may write to it and that the disk is not full.`,
          { errorCode: (error as NodeJS.ErrnoException).code ?? null },
        )
      }
      return { rows: found.length }
    },

    async planRevert(profileId, target) {
      const { records, damaged } = await readChecked(profileId)
      const named = damaged.find((line) => ('change' in target ? line.change === target.change : line.batch === target.batch))
      if (named !== undefined) {
        throw new AppError(
          'storage',
          `The change ${named.change ?? '(without an id)'} in this connection’s change log is damaged (it is not a whole record AdOps Desk wrote), so it cannot be reverted${'batch' in target ? ', nor its batch' : ''}; nothing was planned. Revert the entity by hand from the Entities screen.`,
        )
      }
      return planRevert(records, target)
    },

    async close() {
      const open = [...appenders.values()]
      appenders.clear()
      await Promise.all(open.map(async (appender) => (await appender).close()))
    },
  }
}

function unreadable(error: unknown): AppError {
  return new AppError('storage', 'The change log of this connection could not be read. Check that you may read the app’s data folder, then try again.', {
    errorCode: (error as NodeJS.ErrnoException).code ?? null,
  })
}

/** A line torn by an earlier kill gets its end, so the next record starts a line of its own. */
async function endTornLine(file: string): Promise<void> {
  const handle = await fs.open(file, 'r').catch(() => null)
  if (handle === null) return
  try {
    const { size } = await handle.stat()
    if (size === 0) return
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    if (last.toString() !== '\n') await fs.appendFile(file, '\n')
  } finally {
    await handle.close()
  }
}
