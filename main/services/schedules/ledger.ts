/**
 * The run ledger: one JSON line per run, appended (`ledger.jsonl` in the schedules folder). The
 * app and the command line started by the OS entry both append to it, each line in one write
 * with O_APPEND, so neither rewrites what the other wrote. Bounded: past `maxBytes` the file
 * becomes `ledger.1.jsonl` (replacing the one before) and a new one starts, so at most twice the
 * bound is ever kept or read. A line cut by a crash (the last one, torn) or one that is not a
 * ledger line is skipped, never fatal.
 */
import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { ledgerEntrySchema, type LedgerEntry } from '@contract'
import type { LedgerQuery } from './types'

export const LEDGER_MAX_BYTES = 1024 * 1024
export const LEDGER_PAGE_DEFAULT = 100

export interface Ledger {
  append(entry: LedgerEntry): Promise<void>
  /** Every readable line, oldest first (the rotated file's, then the current one's). */
  all(): Promise<LedgerEntry[]>
  query(query: LedgerQuery): Promise<{ total: number; entries: LedgerEntry[] }>
}

export interface LedgerOptions {
  folder: string
  maxBytes?: number
  fs?: Pick<typeof nodeFs, 'appendFile' | 'readFile' | 'rename' | 'stat' | 'mkdir'>
}

/** A line written before boards could be scheduled: its `preset` is the target, it has no missing tiles. */
export function olderLine(parsed: unknown): unknown {
  if (typeof parsed !== 'object' || parsed === null || 'target' in parsed) return parsed
  const { preset, ...rest } = parsed as Record<string, unknown>
  return { ...rest, target: { kind: 'preset', name: preset }, missingTiles: null }
}

export function createLedger(options: LedgerOptions): Ledger {
  const fs = options.fs ?? nodeFs
  const maxBytes = options.maxBytes ?? LEDGER_MAX_BYTES
  const current = path.join(options.folder, 'ledger.jsonl')
  const previous = path.join(options.folder, 'ledger.1.jsonl')

  async function readLines(file: string): Promise<LedgerEntry[]> {
    let text: string
    try {
      text = await fs.readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    // Bounded: a file grown past twice the bound by hand is read from its end only.
    if (text.length > maxBytes * 2) text = text.slice(text.length - maxBytes * 2)
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

  async function all(): Promise<LedgerEntry[]> {
    return [...(await readLines(previous)), ...(await readLines(current))]
  }

  return {
    async append(entry) {
      await fs.mkdir(options.folder, { recursive: true })
      const size = await fs.stat(current).then(
        (stat) => stat.size,
        () => 0,
      )
      if (size >= maxBytes) await fs.rename(current, previous).catch(() => undefined)
      // A torn line before ours must not swallow it: start on a line of our own.
      await fs.appendFile(current, `\n${JSON.stringify(entry)}\n`, { encoding: 'utf8', mode: 0o600 })
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
