import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import type { audienceResultSchema, timeSeriesResultSchema, CachedResult, ReportDefinition, RunKind } from '@contract'
import { sweepStaleTemps, writeFileAtomic } from '../files/atomic'
import { unreadableWrite } from '../files/checked-write'
import { createDocumentStore, noticeOnCorrupt } from '../files/document-store'
import { idOfSafeFileName, safeFileName } from '../files/json-file'
import { createSerialQueue } from '../files/serial-queue'
import type { Notices } from '../notices'
import { encodeKeptFile } from './kept-file'
import { FORMAT_VERSION, indexSchema, judgeKeptFile, readKeptEntry, type IndexEntry, type KeptEntry } from './kept-entry'
import { createAsideLedger, isAsideName } from './leftovers'
import { definitionHash, resultKey } from './result-key'

/**
 * The last result of every run, per connection, so a report opens at once and offline:
 * `<userData>/results/<profile>/<key>.kept` (kept-file.ts: a JSON header, then the chart's
 * values as raw floats), with the definition, the request bodies as built (before the client
 * adds the token: nothing here is secret) and when it ran. The whole folder is bounded by a
 * size from the settings, results moved aside included (leftovers.ts); those go first, then
 * the least recently used results. Temp files of writes killed mid-way are swept at start. Results kept as
 * `<key>.json` by the first versions are still read.
 */
export interface RecordedRequest {
  operation: 'time_series' | 'audience' | 'export'
  body: Record<string, unknown>
}

export type CachedRun = {
  profileId: string
  preset: string | null
  definition: ReportDefinition
  requests: RecordedRequest[]
} & ({ kind: 'chart'; result: z.output<typeof timeSeriesResultSchema> } | { kind: 'audience'; result: z.output<typeof audienceResultSchema> })

export interface ResultCache {
  put(run: CachedRun): Promise<void>
  /** The preset's own result first, else the last ad hoc run of the same definition. */
  get(profileId: string, kind: RunKind, definition: ReportDefinition, preset: string | null): Promise<CachedResult | null>
  removeProfile(profileId: string): Promise<void>
  usage(): Promise<{ bytes: number; entries: number }>
  /** Applies the limit now (it just got smaller): the least recently used go until the rest fits. */
  trim(): Promise<{ bytes: number; entries: number }>
  /** Writes the order of use not yet on disk (the app closing); the cache still works after it. */
  close(): Promise<void>
}

export interface ResultCacheOptions {
  folder: string
  /** Read at every write, so a changed setting applies at once. */
  limitBytes: () => Promise<number>
  notices: Pick<Notices, 'add'>
  now?: () => Date
  /**
   * Arranges for `persist` to run a while after a read marked a result as used, and answers how
   * to call that off. Default: 30 s on an unref'd timer (it never keeps a process alive).
   */
  schedulePersist?: (persist: () => void) => () => void
}

/** How long the order of use may stay in memory only; a crash loses at most this much of it. */
const PERSIST_USES_AFTER_MS = 30_000

function persistLater(persist: () => void): () => void {
  const timer = setTimeout(persist, PERSIST_USES_AFTER_MS)
  timer.unref()
  return () => clearTimeout(timer)
}

const entryId = (entry: { profileId: string; key: string }): string => `${entry.profileId}\u0000${entry.key}`

export const resultsFolder = (userDataDir: string): string => path.join(userDataDir, 'results')

export function createResultCache({ folder, limitBytes, notices, now = () => new Date(), schedulePersist = persistLater }: ResultCacheOptions): ResultCache {
  const serial = createSerialQueue()
  const index = createDocumentStore({
    filePath: path.join(folder, 'index.json'),
    schema: indexSchema,
    fallback: { version: 1, entries: [] },
    // The index is rebuilt from the files, so losing it loses nothing.
    onCorrupt: noticeOnCorrupt(
      notices,
      'info',
      ({ reason }) => `The index of saved report results could not be read because ${reason}. It was rebuilt from the results on disk.`,
    ),
    now,
  })
  const folderOf = (profileId: string) => path.join(folder, safeFileName(profileId))
  const fileOf = (profileId: string, key: string) => path.join(folderOf(profileId), `${key}.kept`)
  const legacyFileOf = (profileId: string, key: string) => path.join(folderOf(profileId), `${key}.json`)
  /** Both names an entry's file may have: removing an entry removes either. */
  const removeFiles = (profileId: string, key: string) =>
    Promise.all([fs.rm(fileOf(profileId, key), { force: true }), fs.rm(legacyFileOf(profileId, key), { force: true })])
  let reconciled = false
  const asides = createAsideLedger()
  /**
   * When results were last read, by entry id, not yet written to index.json. A read must not
   * cost a rewrite and an fsync of the whole index (a board of 12 tiles read 12 results and
   * wrote the index 12 times between them), so uses are kept here and written with the next
   * change of the index, a while after the first unwritten one (`schedulePersist`), or at
   * close. A crash loses only the uses since: the least recently used order is then a little
   * stale and an eviction may pick a result read lately. Nothing kept is lost or miscounted.
   */
  const uses = new Map<string, string>()
  let cancelPersist: (() => void) | null = null

  /** Every write of the index carries the uses in memory (its entries come from `entries()`), so they are on disk after it. */
  async function writeIndex(list: IndexEntry[]): Promise<void> {
    uses.clear()
    cancelPersist?.()
    cancelPersist = null
    await index.write({ version: 1, entries: list })
  }

  const withUses = (list: IndexEntry[]): IndexEntry[] =>
    uses.size === 0 ? list : list.map((entry) => ({ ...entry, usedAt: uses.get(entryId(entry)) ?? entry.usedAt }))

  /** The index as the files are (files it does not know are added, used when written; entries without a file dropped), with the uses in memory. */
  async function entries(): Promise<IndexEntry[]> {
    const current = (await index.read()).entries
    if (reconciled) return withUses(current)
    reconciled = true
    const onDisk = new Map<string, IndexEntry>()
    const profiles = await fs.readdir(folder, { withFileTypes: true }).catch(() => [])
    for (const profile of profiles) {
      if (profile.isFile() && isAsideName(profile.name)) await asides.add(path.join(folder, profile.name))
      const profileId = profile.isDirectory() ? idOfSafeFileName(profile.name) : null
      if (profileId === null) continue
      // The start of the cache: what killed writes left goes, what was moved aside is counted.
      await sweepStaleTemps(path.join(folder, profile.name), { now, of: (target) => /^[0-9a-f]{40}\.kept$/.test(target) })
      const files = await fs.readdir(path.join(folder, profile.name)).catch(() => [] as string[])
      for (const name of files) {
        if (isAsideName(name)) await asides.add(path.join(folder, profile.name, name))
        if (!/^[0-9a-f]{40}\.(kept|json)$/.test(name)) continue
        const stat = await fs.stat(path.join(folder, profile.name, name)).catch(() => null)
        if (stat === null) continue
        const key = name.slice(0, 40)
        const id = `${profileId}\u0000${key}`
        const bytes = stat.size + (onDisk.get(id)?.bytes ?? 0)
        onDisk.set(id, { profileId, key, bytes, usedAt: stat.mtime.toISOString() })
      }
    }
    const known = new Map(current.map((entry) => [entryId(entry), entry]))
    const merged = withUses([...onDisk].map(([id, found]) => ({ ...found, usedAt: known.get(id)?.usedAt ?? found.usedAt })))
    if (merged.length !== current.length || merged.some((entry) => !known.has(entryId(entry)))) await writeIndex(merged)
    return merged
  }
  async function readEntry(profileId: string, key: string): Promise<KeptEntry | null> {
    const read = await readKeptEntry(fileOf(profileId, key), legacyFileOf(profileId, key), now)
    if (read.state === 'ok') return read.value
    if (read.state === 'corrupt') {
      await asides.add(read.movedTo)
      notices.add({
        level: 'info',
        message: `A saved report result could not be read because ${read.reason}. It was moved aside; the report will simply run again.`,
        details: { movedTo: read.movedTo },
      })
    }
    // Gone or unreadable: forget it so the size count stays true.
    const rest = (await entries()).filter((entry) => !(entry.profileId === profileId && entry.key === key))
    await writeIndex(rest)
    return null
  }

  /** Marks a result as used now, in memory; written later in one go with every other use (see `uses`). */
  function touch(profileId: string, key: string): void {
    uses.set(entryId({ profileId, key }), now().toISOString())
    cancelPersist ??= schedulePersist(() => void serial(persistUses).catch(() => undefined))
  }

  async function persistUses(): Promise<void> {
    cancelPersist = null
    if (uses.size > 0) await writeIndex(await entries())
  }

  /**
   * Removes files moved aside, then the least recently used entries, until the rest fits in
   * `limit`, then writes the index; the last `keepLast` entries (the one just written) are never removed.
   */
  async function evictBeyond(limit: number, kept: IndexEntry[], keepLast: number): Promise<IndexEntry[]> {
    const byUse = kept.slice(0, kept.length - keepLast).sort((left, right) => (left.usedAt < right.usedAt ? -1 : left.usedAt > right.usedAt ? 1 : 0))
    let total = await asides.evict(kept.reduce((sum, entry) => sum + entry.bytes, 0) + asides.bytes(), limit)
    const evicted = new Set<IndexEntry>()
    for (const entry of byUse) {
      if (total <= limit) break
      await removeFiles(entry.profileId, entry.key)
      evicted.add(entry)
      total -= entry.bytes
    }
    const rest = kept.filter((entry) => !evicted.has(entry))
    await writeIndex(rest)
    return rest
  }

  const usageOf = (known: IndexEntry[]) => ({ bytes: known.reduce((sum, entry) => sum + entry.bytes, 0) + asides.bytes(), entries: known.length })

  return {
    put: (run) =>
      serial(async () => {
        const key = resultKey(run.kind, run.definition, run.preset)
        const storedAt = now().toISOString()
        const header = {
          version: FORMAT_VERSION,
          profileId: run.profileId,
          preset: run.preset,
          kind: run.kind,
          definitionHash: definitionHash(run.definition),
          definition: run.definition,
          requests: run.requests,
          ranAt: run.result.ranAt,
          storedAt,
          // A chart's values go after the header as raw floats, not in it.
          result: run.kind === 'chart' ? { ...run.result, series: run.result.series.map(({ values: _values, ...series }) => series) } : run.result,
        }
        const file = encodeKeptFile(header, run.kind === 'chart' ? run.result.series.map((series) => series.values) : [])
        // Read back before it is written: a result its reader would refuse (an infinite value) is not kept at all.
        const judged = judgeKeptFile(file)
        if ('problem' in judged) throw unreadableWrite('The result kept for offline use', judged.problem)
        const bytes = file.length
        const limit = await limitBytes()
        // A result bigger than the whole cache is not kept: it would push out everything else and still not fit.
        if (bytes > limit) return
        await writeFileAtomic(fileOf(run.profileId, key), file)
        await fs.rm(legacyFileOf(run.profileId, key), { force: true })
        const others = (await entries()).filter((entry) => !(entry.profileId === run.profileId && entry.key === key))
        const kept = [...others, { profileId: run.profileId, key, bytes, usedAt: storedAt }]
        // The result just written is last and always stays.
        await evictBeyond(limit, kept, 1)
      }),

    get: (profileId, kind, definition, preset) =>
      serial(async () => {
        const keys = preset === null ? [resultKey(kind, definition, null)] : [resultKey(kind, definition, preset), resultKey(kind, definition, null)]
        const known = await entries()
        for (const key of keys) {
          if (!known.some((entry) => entry.profileId === profileId && entry.key === key)) continue
          const entry = await readEntry(profileId, key)
          if (entry === null) continue
          touch(profileId, key)
          return entry.kind === 'chart'
            ? { kind: 'chart' as const, preset: entry.preset, ranAt: entry.ranAt, result: entry.result }
            : { kind: 'audience' as const, preset: entry.preset, ranAt: entry.ranAt, result: entry.result }
        }
        return null
      }),

    removeProfile: (profileId) =>
      serial(async () => {
        await fs.rm(folderOf(profileId), { recursive: true, force: true })
        asides.forgetUnder(folderOf(profileId))
        const rest = (await entries()).filter((entry) => entry.profileId !== profileId)
        await writeIndex(rest)
      }),

    usage: () => serial(async () => usageOf(await entries())),

    trim: () => serial(async () => usageOf(await evictBeyond(await limitBytes(), await entries(), 0))),

    close: () =>
      serial(async () => {
        cancelPersist?.()
        await persistUses()
      }),
  }
}
