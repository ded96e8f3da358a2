import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { EntityId } from '@contract'
import { formatBytes } from '../../../common/format'
import { AppError } from '../errors'
import { writeFileAtomic } from '../files/atomic'
import { idOfSafeFileName, safeFileName } from '../files/json-file'
import { openAppendFile } from '../files/append-file'
import type { BatchSource, RowStatus } from './apply-types'
import type { PlannedRow } from './plan'

/**
 * The journal of one batch being applied: `<userData>/bulk-journals/<profile>/<batch>.jsonl`.
 * Its first line, the header (the batch and every planned row), is written atomically before
 * the first send; then one line is appended (and synced to disk) before each send, `sending`,
 * and one after it, `done`. If the app or the machine dies, the next start reads it: rows
 * done are never sent again, and a row `sending` without `done` is checked on the platform
 * before anything is sent for it again. A finished journal is removed (the change log keeps
 * the history). The last line may be torn by a kill mid-write: it is ignored.
 */

export interface JournalHeader {
  version: 1
  batch: string
  profileId: string
  kind: string
  source: BatchSource
  title: string
  fingerprint: string | null
  startedAt: string
  rows: PlannedRow[]
}

export interface JournalDone {
  status: RowStatus
  id: EntityId | null
  reason?: string
}

export interface JournalState {
  header: JournalHeader
  /** Rows whose outcome was written. */
  done: Map<number, JournalDone>
  /** Rows sent (or about to be) whose outcome was never written: checked before sending again. */
  sending: Set<number>
}

export interface JournalWriter {
  sending(row: number): Promise<void>
  done(row: number, outcome: JournalDone): Promise<void>
  close(): Promise<void>
}

export interface JournalStore {
  /** Writes the header atomically; the batch's journal exists from then on. */
  start(header: JournalHeader): Promise<JournalWriter>
  read(profileId: string, batch: string): Promise<JournalState>
  /** Appends to an existing journal (a resume). */
  reopen(profileId: string, batch: string): Promise<JournalWriter>
  /** Every journal of the connection, oldest first; unreadable ones are left out. */
  list(profileId: string): Promise<JournalState[]>
  remove(profileId: string, batch: string): Promise<void>
}

/** A journal holds its plan: 100,000 rows of entities fit well within this. */
export const MAX_JOURNAL_BYTES = 256 * 1024 * 1024

export const journalsFolder = (userDataDir: string): string => path.join(userDataDir, 'bulk-journals')

export interface JournalStoreOptions {
  folder: string
  maxBytes?: number
}

type Line = { sending: number } | ({ done: number } & JournalDone)

export function createJournalStore({ folder, maxBytes = MAX_JOURNAL_BYTES }: JournalStoreOptions): JournalStore {
  const fileOf = (profileId: string, batch: string): string => path.join(folder, safeFileName(profileId), `${safeFileName(batch)}.jsonl`)

  function open(file: string): JournalWriter {
    const appender = openAppendFile(file)
    // A `sending` line is on disk before the send it announces (one sync takes the lines before it along).
    // A `done` line is not synced on its own: lost in a crash, its row reads as `sending`, which a resume checks on the platform.
    const append = (line: Line, durable: boolean): Promise<void> => appender.append(`${JSON.stringify(line)}\n`, durable)
    return {
      sending: (row) => append({ sending: row }, true),
      done: (row, outcome) => append({ done: row, ...outcome }, false),
      close: () => appender.close(),
    }
  }

  async function read(profileId: string, batch: string): Promise<JournalState> {
    return readJournal(fileOf(profileId, batch), maxBytes)
  }

  return {
    async start(header) {
      const file = fileOf(header.profileId, header.batch)
      await writeFileAtomic(file, `${JSON.stringify(header)}\n`)
      return open(file)
    },
    read,
    async reopen(profileId, batch) {
      const file = fileOf(profileId, batch)
      // A torn last line gets its end, so the lines appended now start on a line of their own.
      const text = await readBounded(file, maxBytes)
      if (!text.endsWith('\n')) await fs.appendFile(file, '\n')
      return open(file)
    },
    async list(profileId) {
      const profileFolder = path.join(folder, safeFileName(profileId))
      const names = await fs.readdir(profileFolder).catch(() => [] as string[])
      const states: JournalState[] = []
      for (const name of names) {
        const batch = name.endsWith('.jsonl') ? idOfSafeFileName(name.slice(0, -'.jsonl'.length)) : null
        if (batch === null) continue
        const state = await read(profileId, batch).catch(() => null)
        if (state !== null) states.push(state)
      }
      return states.sort((first, second) => first.header.startedAt.localeCompare(second.header.startedAt))
    },
    async remove(profileId, batch) {
      await fs.rm(fileOf(profileId, batch), { force: true })
    },
  }
}

async function readBounded(file: string, maxBytes: number): Promise<string> {
  const stats = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new AppError('not_found', 'That batch has no journal any more: it finished or was discarded.', { errorCode: error.code ?? null })
  })
  if (stats.size > maxBytes) {
    throw new AppError(
      'storage',
      `The journal of this batch is ${formatBytes(stats.size)}, more than the ${formatBytes(maxBytes)} AdOps Desk reads; it cannot be resumed. Discard it and apply the rest again.`,
    )
  }
  return fs.readFile(file, 'utf8')
}

/** The journal's header and lines; a line that is not JSON (torn by a kill mid-write) is ignored. */
export async function readJournal(file: string, maxBytes = MAX_JOURNAL_BYTES): Promise<JournalState> {
  const text = await readBounded(file, maxBytes)
  const lines = text.split('\n')
  let header: JournalHeader | null = null
  try {
    header = JSON.parse(lines[0] ?? '') as JournalHeader
  } catch {
    header = null
  }
  if (header === null || header.version !== 1 || !Array.isArray(header.rows)) {
    throw new AppError('storage', 'The journal of this batch cannot be read (its first line is damaged); it cannot be resumed. Discard it.')
  }
  const done = new Map<number, JournalDone>()
  const sending = new Set<number>()
  for (const text of lines.slice(1)) {
    if (text.trim() === '') continue
    let line: unknown
    try {
      line = JSON.parse(text)
    } catch {
      continue
    }
    if (typeof line !== 'object' || line === null) continue
    if ('sending' in line && typeof line.sending === 'number') sending.add(line.sending)
    else if ('done' in line && typeof line.done === 'number' && 'status' in line) {
      const { done: row, ...outcome } = line as { done: number } & JournalDone
      done.set(row, outcome)
    }
  }
  for (const row of done.keys()) sending.delete(row)
  return { header, done, sending }
}
