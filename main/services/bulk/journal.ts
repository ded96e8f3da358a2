import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { batchSources, entityIdSchema, entityKindSchema, planActions, rowStatuses, type EntityId } from '@contract'
import { formatBytes } from '../../../common/format'
import { AppError } from '../errors'
import { asideName, writeFileAtomic } from '../files/atomic'
import { idOfSafeFileName, safeFileName } from '../files/json-file'
import { openAppendFile } from '../files/append-file'
import { refuseUnreadable } from '../files/checked-write'
import type { BatchSource, CreateCandidate, RowStatus } from './apply-types'
import type { PlannedRow } from './plan'

/**
 * The journal of one batch being applied: `<userData>/bulk-journals/<profile>/<batch>.jsonl`.
 * Its first line, the header (the batch and every planned row), is written atomically before
 * the first send; then one line is appended (and synced to disk) before each send, `sending`,
 * and one after it, `done`. If the app or the machine dies, the next start reads it: rows
 * done are never sent again, and a row `sending` without `done` is checked on the platform
 * before anything is sent for it again. A finished journal is removed (the change log keeps
 * the history). The last line may be torn by a kill mid-write: it is ignored.
 *
 * A journal is read against its schema, header and lines alike, and must name the connection and
 * the batch of its folder and file name: one that does not (damaged, or written by hand to send
 * rows to another connection) is moved aside and refused with a sentence; nothing is sent for it.
 * A `decided` line holds the user's word on a create whose outcome is `unknown`.
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
  /** An `unknown` create: the entities the platform had under its name. */
  candidates?: CreateCandidate[]
}

export interface JournalState {
  header: JournalHeader
  /** Rows whose outcome was written. */
  done: Map<number, JournalDone>
  /** Rows sent (or about to be) whose outcome was never written: checked before sending again. */
  sending: Set<number>
  /** Rows the user decided after their outcome was `unknown`: the id it was created as, or null to send it again. */
  decisions: Map<number, EntityId | null>
}

export interface JournalWriter {
  sending(row: number): Promise<void>
  done(row: number, outcome: JournalDone): Promise<void>
  /** The user's word on an `unknown` create; synced, as a `sending` line is, since it decides what is sent. */
  decide(row: number, createdId: EntityId | null): Promise<void>
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
  /** Stamps the name of a journal moved aside. */
  now?: () => Date
}

const fieldsSchema = z.record(z.string(), z.unknown())
const plannedRowSchema = z.object({
  row: z.number().int().min(0),
  action: z.enum(planActions),
  id: entityIdSchema.nullable(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
  entity: fieldsSchema.nullable(),
  before: fieldsSchema.nullable(),
  errors: z.array(z.object({ row: z.number(), column: z.string().nullable(), reason: z.string() })),
  reverts: z.string().min(1).optional(),
})
/** A journal's first line. */
export const journalHeaderSchema = z.object({
  version: z.literal(1),
  batch: z.string().min(1),
  profileId: z.string().min(1),
  kind: entityKindSchema,
  source: z.enum(batchSources),
  title: z.string(),
  fingerprint: z.string().nullable(),
  startedAt: z.string(),
  rows: z.array(plannedRowSchema),
})
const rowNumber = z.number().int().min(0)
const candidateSchema = z.object({ id: entityIdSchema, name: z.string() })
/** Every line after the header. */
const journalLineSchema = z.union([
  z.object({ sending: rowNumber }),
  z.object({
    done: rowNumber,
    status: z.enum(rowStatuses),
    id: entityIdSchema.nullable(),
    reason: z.string().optional(),
    candidates: z.array(candidateSchema).optional(),
  }),
  z.object({ decided: rowNumber, createdId: entityIdSchema.nullable() }),
])
type Line = z.infer<typeof journalLineSchema>

export function createJournalStore({ folder, maxBytes = MAX_JOURNAL_BYTES, now = () => new Date() }: JournalStoreOptions): JournalStore {
  const fileOf = (profileId: string, batch: string): string => path.join(folder, safeFileName(profileId), `${safeFileName(batch)}.jsonl`)

  function open(file: string): JournalWriter {
    const appender = openAppendFile(file)
    // A `sending` line is on disk before the send it announces (one sync takes the lines before it along).
    // A `done` line is not synced on its own: lost in a crash, its row reads as `sending`, which a resume checks on the platform.
    // Each line is checked against the reader's schema first: a line the resume would refuse is never written.
    const append = async (line: Line, durable: boolean): Promise<void> => {
      refuseUnreadable(line, journalLineSchema, 'The batch’s journal line')
      await appender.append(`${JSON.stringify(line)}\n`, durable)
    }
    return {
      sending: (row) => append({ sending: row }, true),
      done: (row, outcome) => append({ done: row, ...outcome }, false),
      decide: (row, createdId) => append({ decided: row, createdId }, true),
      close: () => appender.close(),
    }
  }

  async function read(profileId: string, batch: string): Promise<JournalState> {
    const file = fileOf(profileId, batch)
    const read = parseJournal(await readBounded(file, maxBytes))
    if (typeof read !== 'string' && read.header.profileId === profileId && read.header.batch === batch) return read
    const problem =
      typeof read === 'string'
        ? read
        : 'names another connection or batch than the folder and file it is kept in (a journal is only resumed against the connection it was written for)'
    const target = asideName(file, now())
    await fs.rename(file, target)
    const shown = path.join(path.basename(folder), path.basename(path.dirname(file)), path.basename(target))
    throw new AppError(
      'storage',
      `The journal of this batch ${problem}, so it was not resumed and nothing was sent for it. It was moved aside as ${shown}; apply the rest of the batch again.`,
    )
  }

  return {
    async start(header) {
      const file = fileOf(header.profileId, header.batch)
      refuseUnreadable(header, journalHeaderSchema, 'The batch’s journal')
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

/** The journal's header and lines, or what is wrong with them; a line that is not JSON (torn by a kill mid-write) is ignored. */
function parseJournal(text: string): JournalState | string {
  const lines = text.split('\n')
  const header = journalHeaderSchema.safeParse(parsedJson(lines[0] ?? ''))
  if (!header.success) return 'cannot be read (its first line is damaged, or was not written by AdOps Desk)'
  const done = new Map<number, JournalDone>()
  const sending = new Set<number>()
  const decisions = new Map<number, EntityId | null>()
  for (const [index, text] of lines.entries()) {
    if (index === 0 || text.trim() === '') continue
    const json = parsedJson(text)
    if (json === undefined) continue
    const line = journalLineSchema.safeParse(json)
    if (!line.success) return `holds a line AdOps Desk did not write (line ${index + 1})`
    apply(line.data)
  }
  function apply(line: Line): void {
    if ('sending' in line) sending.add(line.sending)
    else if ('done' in line) {
      const { done: row, ...outcome } = line
      done.set(row, outcome)
      sending.delete(row)
    } else {
      // A decision opens the row again: sent (or taken as created) by the next run, checked as usual if it is left `sending` once more.
      done.delete(line.decided)
      sending.delete(line.decided)
      decisions.set(line.decided, line.createdId)
    }
  }
  return { header: header.data, done, sending, decisions }
}

/** The JSON value of a line; undefined for a line that is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
