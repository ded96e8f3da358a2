import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { z } from 'zod'
import { historyEntrySchema, reportDefinitionSchema, type HistoryEntry, type ReportDefinition, type RunOutcome } from '@contract'
import { AppError } from '../errors'
import { createDocumentStore, noticeOnCorrupt } from '../files/document-store'
import type { Notices } from '../notices'
import { nameKey } from '../presets/names'
import { definitionHash } from '../results/result-key'

/**
 * Every run, newest last, bounded: `<userData>/history/runs.json`. The definitions the runs
 * used are kept once each (most runs repeat a few reports) in `definitions.json`, so the run
 * list stays small enough to rewrite at every run, and "run again" has what it needs.
 */
export interface RunHistoryQuery {
  profileId?: string | undefined
  search?: string | undefined
  /** A preset's name (any case); null: ad hoc runs only; absent: every run. */
  preset?: string | null | undefined
  outcome?: RunOutcome | undefined
  offset?: number | undefined
  limit?: number | undefined
}

export interface RunHistoryStore {
  add(entry: Omit<HistoryEntry, 'id'>, definition: ReportDefinition): Promise<HistoryEntry>
  list(query: RunHistoryQuery): Promise<{ total: number; entries: HistoryEntry[] }>
  get(id: string): Promise<HistoryEntry & { definition: ReportDefinition }>
}

export interface RunHistoryStoreOptions {
  folder: string
  notices: Pick<Notices, 'add'>
  /** Runs kept; the oldest go first. */
  limit?: number
  newId?: () => string
  now?: () => Date
}

export const DEFAULT_RUN_HISTORY_LIMIT = 5_000
export const runHistoryFolder = (userDataDir: string): string => path.join(userDataDir, 'history')

const storedRunSchema = historyEntrySchema.extend({ definitionHash: z.string() })
type StoredRun = z.output<typeof storedRunSchema>
const runsSchema = z.object({ version: z.literal(1), runs: z.array(storedRunSchema) })
const definitionsSchema = z.object({ version: z.literal(1), byHash: z.record(z.string(), reportDefinitionSchema) })

const DEFAULT_PAGE = 200

export function createRunHistoryStore({
  folder,
  notices,
  limit = DEFAULT_RUN_HISTORY_LIMIT,
  newId = randomUUID,
  now,
}: RunHistoryStoreOptions): RunHistoryStore {
  const runs = createDocumentStore({
    filePath: path.join(folder, 'runs.json'),
    schema: runsSchema,
    fallback: { version: 1, runs: [] },
    onCorrupt: noticeOnCorrupt(
      notices,
      'warning',
      ({ reason }) => `The run history could not be read because ${reason}. It starts empty again; the old file was moved aside.`,
    ),
    ...(now ? { now } : {}),
  })
  const definitions = createDocumentStore({
    filePath: path.join(folder, 'definitions.json'),
    schema: definitionsSchema,
    fallback: { version: 1, byHash: {} },
    onCorrupt: noticeOnCorrupt(
      notices,
      'warning',
      ({ reason }) =>
        `The reports behind the run history could not be read because ${reason}. Past runs are still listed but cannot be run again from the history.`,
    ),
    ...(now ? { now } : {}),
  })

  function matches(run: StoredRun, query: RunHistoryQuery, words: string[]): boolean {
    if (query.profileId !== undefined && run.profileId !== query.profileId) return false
    if (query.outcome !== undefined && run.outcome !== query.outcome) return false
    if (query.preset === null && run.preset !== null) return false
    if (typeof query.preset === 'string' && (run.preset === null || nameKey(run.preset) !== nameKey(query.preset))) return false
    if (words.length === 0) return true
    const haystack = [
      run.preset,
      run.project,
      run.report,
      run.connection,
      run.error,
      run.kind,
      run.outcome,
      run.dates.start,
      run.dates.end,
      run.range?.start,
      run.range?.end,
    ]
      .filter((part): part is string => typeof part === 'string')
      .join('\n')
      .toLocaleLowerCase('en-US')
    return words.every((word) => haystack.includes(word))
  }

  const present = ({ definitionHash: _hash, ...entry }: StoredRun): HistoryEntry => entry

  return {
    async add(entry, definition) {
      const hash = definitionHash(definition)
      const run: StoredRun = { ...entry, id: newId(), definitionHash: hash }
      // The definition lands first, so a listed run never points at a definition that is not there.
      await definitions.update((current) => (current.byHash[hash] !== undefined ? current : { ...current, byHash: { ...current.byHash, [hash]: definition } }))
      let dropped: StoredRun[] = []
      const updated = await runs.update((current) => {
        const all = [...current.runs, run]
        dropped = all.slice(0, Math.max(0, all.length - limit))
        return { ...current, runs: all.slice(dropped.length) }
      })
      if (dropped.length > 0) {
        const used = new Set(updated.runs.map((kept) => kept.definitionHash))
        const unused = dropped.map((old) => old.definitionHash).filter((old) => !used.has(old))
        if (unused.length > 0) {
          await definitions.update((current) => ({
            ...current,
            byHash: Object.fromEntries(Object.entries(current.byHash).filter(([key]) => !unused.includes(key))),
          }))
        }
      }
      return present(run)
    },

    async list(query) {
      const words = (query.search ?? '')
        .toLocaleLowerCase('en-US')
        .split(/\s+/)
        .filter((word) => word !== '')
      const found = (await runs.read()).runs.filter((run) => matches(run, query, words)).reverse()
      const offset = query.offset ?? 0
      return { total: found.length, entries: found.slice(offset, offset + (query.limit ?? DEFAULT_PAGE)).map(present) }
    },

    async get(id) {
      const run = (await runs.read()).runs.find((candidate) => candidate.id === id)
      if (run === undefined) throw new AppError('not_found', 'That run is no longer in the history (only the latest runs are kept).', { id })
      const definition = (await definitions.read()).byHash[run.definitionHash]
      if (definition === undefined)
        throw new AppError('not_found', 'The report behind that run is no longer on disk, so it cannot be opened from the history.', { id })
      return { ...present(run), definition }
    },
  }
}
