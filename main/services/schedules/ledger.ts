/**
 * The run ledger: one JSON line per run, appended (`ledger.jsonl` in the schedules folder). The
 * app and the command line started by the OS entry both append to it, each line in one write
 * with O_APPEND, so neither rewrites what the other wrote. Bounded: past `maxBytes` the file
 * becomes `ledger.1.jsonl` (replacing the one before) and a new one starts. A rotation is done
 * under a short lock file (O_EXCL) with the size looked at again under it, so two processes never
 * both rename (the second would replace ledger.1 with a few lines). Each file is read from its
 * last 2 × `maxBytes` only, through a file handle, whatever its size: the line the read starts
 * inside of is skipped, as is a line cut by a crash (the last one, torn) or one that is not a
 * ledger line, never fatal.
 */
import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { ledgerEntrySchema, type LedgerEntry } from '@contract'
import { AppError } from '../errors'
import { refuseUnreadable } from '../files/checked-write'
import type { LedgerQuery } from './types'

export const LEDGER_MAX_BYTES = 1024 * 1024
export const LEDGER_PAGE_DEFAULT = 100
/** A rotation takes milliseconds: a rotation lock older than this was left by a process that died holding it. */
const ROTATION_LOCK_STALE_MS = 30_000

export interface Ledger {
  /**
   * Appends the run's line. Rejects with LedgerNotRotatedError when the line was written but the
   * file could not be rotated (it keeps growing until a rotation works; reads stay bounded);
   * with a storage AppError (a sentence naming the system's code, no path) when it could not be written.
   */
  append(entry: LedgerEntry): Promise<void>
  /** Every readable line, oldest first (the rotated file's, then the current one's), each file's end only. */
  all(): Promise<LedgerEntry[]>
  query(query: LedgerQuery): Promise<{ total: number; entries: LedgerEntry[] }>
}

export interface LedgerOptions {
  folder: string
  maxBytes?: number
  fs?: Pick<typeof nodeFs, 'appendFile' | 'open' | 'rename' | 'rm' | 'stat' | 'mkdir'>
}

/** The run's line is in the ledger, but the ledger could not be rotated: said, so the run's outcome and the log show it. */
export class LedgerNotRotatedError extends AppError {
  /** The line was written: the run counts as recorded. */
  readonly recorded = true
  constructor(reason: string) {
    super(
      'storage',
      `The run was recorded, but the run ledger could not be rotated (${reason}), so it keeps growing. Check that the data folder can be written and that no other program holds the ledger open.`,
    )
    this.name = 'LedgerNotRotatedError'
  }
}

const systemCodeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? null
const reasonOf = (error: unknown) => systemCodeOf(error) ?? 'an unknown error'

/** A line written before boards could be scheduled: its `preset` is the target, it has no missing tiles. */
export function olderLine(parsed: unknown): unknown {
  if (typeof parsed !== 'object' || parsed === null || 'target' in parsed) return parsed
  const { preset, ...rest } = parsed as Record<string, unknown>
  return { ...rest, target: { kind: 'preset', name: preset }, missingTiles: null }
}

function parsedLines(text: string): LedgerEntry[] {
  const entries: LedgerEntry[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const parsed = ledgerEntrySchema.safeParse(olderLine(JSON.parse(line)))
      if (parsed.success) entries.push(parsed.data)
    } catch {
      // A torn line (the process died mid-write) or a stray one: skipped.
    }
  }
  return entries
}

export function createLedger(options: LedgerOptions): Ledger {
  const fs = options.fs ?? nodeFs
  const maxBytes = options.maxBytes ?? LEDGER_MAX_BYTES
  const current = path.join(options.folder, 'ledger.jsonl')
  const previous = path.join(options.folder, 'ledger.1.jsonl')
  const rotationLock = path.join(options.folder, 'ledger.rotating.lock')

  /** The file's last 2 × maxBytes as text, from the first whole line in them; '' when there is no file. */
  async function tailOf(file: string): Promise<string> {
    const handle = await fs.open(file, 'r').catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    })
    if (handle === null) return ''
    try {
      const { size } = await handle.stat()
      const start = Math.max(0, size - maxBytes * 2)
      const buffer = Buffer.alloc(size - start)
      let filled = 0
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled)
        if (bytesRead === 0) break
        filled += bytesRead
      }
      const text = buffer.subarray(0, filled).toString('utf8')
      // Started inside a line (or a character): everything up to the first line break is a piece of one.
      return start === 0 ? text : text.slice(text.indexOf('\n') + 1)
    } finally {
      await handle.close().catch(() => undefined)
    }
  }

  async function readLines(file: string): Promise<LedgerEntry[]> {
    try {
      return parsedLines(await tailOf(file))
    } catch (error) {
      throw new AppError(
        'storage',
        `The run ledger could not be read. Check that the data folder can be read; moving its schedules/ledger.jsonl aside starts a new ledger.`,
        { errorCode: systemCodeOf(error) },
      )
    }
  }

  const sizeOf = (file: string) =>
    fs.stat(file).then(
      (stat) => stat.size,
      () => 0,
    )

  /** Takes the rotation lock; false when another process holds it (a fresh one). A stale one is taken over once. */
  async function lockRotation(): Promise<boolean> {
    for (let tries = 0; tries < 2; tries += 1) {
      try {
        await (await fs.open(rotationLock, 'wx', 0o600)).close()
        return true
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
        const held = await fs.stat(rotationLock).catch(() => null)
        if (held !== null && Date.now() - held.mtimeMs < ROTATION_LOCK_STALE_MS) return false
        await fs.rm(rotationLock, { force: true })
      }
    }
    return false
  }

  /**
   * Moves a full ledger to ledger.1 under the lock; the size is looked at again under it, as the
   * other process may have rotated meanwhile. Another process rotating now: this append goes to
   * the file as it is (one line past the bound) and the next rotates. Answers the error, if any.
   */
  async function rotate(): Promise<unknown> {
    try {
      if (!(await lockRotation())) return null
      try {
        if ((await sizeOf(current)) >= maxBytes) await fs.rename(current, previous)
      } finally {
        await fs.rm(rotationLock, { force: true })
      }
      return null
    } catch (error) {
      return error
    }
  }

  async function all(): Promise<LedgerEntry[]> {
    return [...(await readLines(previous)), ...(await readLines(current))]
  }

  return {
    async append(entry) {
      refuseUnreadable(entry, ledgerEntrySchema, 'The run’s ledger line') // a line its reader would skip is never appended
      let rotationFailure: unknown = null
      try {
        await fs.mkdir(options.folder, { recursive: true })
        if ((await sizeOf(current)) >= maxBytes) rotationFailure = await rotate()
        // A torn line before ours must not swallow it: start on a line of our own.
        await fs.appendFile(current, `\n${JSON.stringify(entry)}\n`, { encoding: 'utf8', mode: 0o600 })
      } catch (error) {
        throw new AppError('storage', `The run could not be recorded in the run ledger. Free some disk space and check that the data folder can be written.`, {
          errorCode: systemCodeOf(error),
        })
      }
      // Said once the line is written: the run is recorded either way.
      if (rotationFailure !== null) throw new LedgerNotRotatedError(reasonOf(rotationFailure))
    },
    all,
    async query(query) {
      const search = query.search?.trim().toLowerCase() ?? ''
      const matching = (await all())
        .filter(
          (entry) =>
            (query.scheduleId === undefined || entry.scheduleId === query.scheduleId) &&
            (query.outcome === undefined || entry.outcome === query.outcome) &&
            (query.source === undefined || entry.source === query.source) &&
            (query.late === undefined || entry.late === query.late) &&
            (search === '' ||
              [entry.scheduleName, entry.target.name, entry.fileName ?? '', entry.error ?? ''].some((text) => text.toLowerCase().includes(search))),
        )
        .reverse()
      const offset = query.offset ?? 0
      return { total: matching.length, entries: matching.slice(offset, offset + (query.limit ?? LEDGER_PAGE_DEFAULT)) }
    },
  }
}
