import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import {
  audienceResultSchema,
  reportDefinitionSchema,
  seriesSchema,
  timeSeriesResultSchema,
  type CachedResult,
  type ReportDefinition,
  type RunKind,
} from '@contract'
import { sweepStaleTemps, writeFileAtomic } from '../files/atomic'
import { createDocumentStore, noticeOnCorrupt } from '../files/document-store'
import { idOfSafeFileName, judgeDocument, moveAside, readJsonFile, safeFileName, type JsonFileRead } from '../files/json-file'
import { createSerialQueue } from '../files/serial-queue'
import type { Notices } from '../notices'
import { decodeKeptFile, encodeKeptFile, splitValues } from './kept-file'
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
}

export interface ResultCacheOptions {
  folder: string
  /** Read at every write, so a changed setting applies at once. */
  limitBytes: () => Promise<number>
  notices: Pick<Notices, 'add'>
  now?: () => Date
}

/**
 * A chart's categories checked by a plain loop: a kept result may hold 10,000 of them, and
 * checking each item through zod cost ~10 ms of opening a preset. Everything else is checked
 * by its schema as usual; the values, kept apart from the header, by `splitValues`.
 */
const strings = z.custom<string[]>((value) => Array.isArray(value) && value.every((item) => typeof item === 'string'), 'Expected a list of texts')
const keptChartHeaderSchema = timeSeriesResultSchema.extend({
  categories: strings,
  comparisonCategories: strings,
  series: z.array(seriesSchema.omit({ values: true })),
})

const requestSchema = z.object({ operation: z.enum(['time_series', 'audience', 'export']), body: z.record(z.string(), z.unknown()) })
const common = {
  profileId: z.string(),
  preset: z.string().nullable(),
  definitionHash: z.string(),
  definition: reportDefinitionSchema,
  requests: z.array(requestSchema),
  ranAt: z.string(),
  storedAt: z.string(),
}
const FORMAT_VERSION = 2
const counts = z.array(z.number().int().nonnegative())
const headerSchema = z.discriminatedUnion('kind', [
  z.object({ ...common, version: z.literal(FORMAT_VERSION), kind: z.literal('chart'), result: keptChartHeaderSchema, valueCounts: counts }),
  z.object({ ...common, version: z.literal(FORMAT_VERSION), kind: z.literal('audience'), result: audienceResultSchema, valueCounts: z.array(z.never()) }),
])

/** How the first versions kept a result: one JSON document, the chart's values in it. */
const numbersOrGaps = z.custom<Array<number | null>>(
  (value) => Array.isArray(value) && value.every((item) => item === null || (typeof item === 'number' && Number.isFinite(item))),
  'Expected numbers or null',
)
const legacyFileSchema = z.discriminatedUnion('kind', [
  z.object({
    ...common,
    version: z.literal(1),
    kind: z.literal('chart'),
    result: keptChartHeaderSchema.extend({ series: z.array(seriesSchema.extend({ values: numbersOrGaps })) }),
  }),
  z.object({ ...common, version: z.literal(1), kind: z.literal('audience'), result: audienceResultSchema }),
])

type KeptEntry =
  | { preset: string | null; ranAt: string; kind: 'chart'; result: z.output<typeof timeSeriesResultSchema> }
  | { preset: string | null; ranAt: string; kind: 'audience'; result: z.output<typeof audienceResultSchema> }

const indexSchema = z.object({
  version: z.literal(1),
  entries: z.array(z.object({ profileId: z.string(), key: z.string(), bytes: z.number(), usedAt: z.string() })),
})
type IndexEntry = z.output<typeof indexSchema>['entries'][number]

export const resultsFolder = (userDataDir: string): string => path.join(userDataDir, 'results')

export function createResultCache({ folder, limitBytes, notices, now = () => new Date() }: ResultCacheOptions): ResultCache {
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

  /** The index as the files are: files it does not know are added (used when written), entries without a file dropped. */
  async function entries(): Promise<IndexEntry[]> {
    const current = (await index.read()).entries
    if (reconciled) return current
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
    const known = new Map(current.map((entry) => [`${entry.profileId}\u0000${entry.key}`, entry]))
    const merged = [...onDisk].map(([id, found]) => ({ ...found, usedAt: known.get(id)?.usedAt ?? found.usedAt }))
    if (merged.length !== current.length || merged.some((entry) => !known.has(`${entry.profileId}\u0000${entry.key}`))) {
      await index.write({ version: 1, entries: merged })
    }
    return merged
  }

  /** The entry's file read and checked, as `readJsonFile` reads a JSON file: one that is not what it should be is moved aside. */
  async function readKept(profileId: string, key: string): Promise<JsonFileRead<KeptEntry>> {
    const filePath = fileOf(profileId, key)
    let bytes: Buffer
    try {
      bytes = await fs.readFile(filePath)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return moveAside(filePath, `it could not be read (${(error as Error).message})`, now())
      return readJsonFile(legacyFileOf(profileId, key), legacyFileSchema, now)
    }
    const problem = (reason: string) => moveAside(filePath, reason, now())
    const decoded = decodeKeptFile(bytes)
    if ('problem' in decoded) return problem(decoded.problem)
    const judged = judgeDocument(decoded.header, headerSchema, { version: FORMAT_VERSION })
    if ('problem' in judged) return problem(judged.problem)
    const header = judged.value
    if (header.kind === 'audience') {
      return decoded.values.length === 0 ? { state: 'ok', value: header } : problem('its values do not match the counts in its header')
    }
    if (header.valueCounts.length !== header.result.series.length) return problem('its header counts values for another number of series')
    const values = splitValues(decoded.values, header.valueCounts)
    if (!Array.isArray(values)) return problem(values.problem)
    const series = header.result.series.map((entry, index) => ({ ...entry, values: values[index] ?? [] }))
    return { state: 'ok', value: { ...header, result: { ...header.result, series } } }
  }

  async function readEntry(profileId: string, key: string): Promise<KeptEntry | null> {
    const read = await readKept(profileId, key)
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
    await index.write({ version: 1, entries: rest })
    return null
  }

  async function touch(profileId: string, key: string): Promise<void> {
    const usedAt = now().toISOString()
    const updated = (await entries()).map((entry) => (entry.profileId === profileId && entry.key === key ? { ...entry, usedAt } : entry))
    await index.write({ version: 1, entries: updated })
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
    await index.write({ version: 1, entries: rest })
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
          // Marked as used after the answer is on its way: the index write need not hold up the chart.
          void serial(() => touch(profileId, key)).catch(() => undefined)
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
        await index.write({ version: 1, entries: rest })
      }),

    usage: () => serial(async () => usageOf(await entries())),

    trim: () => serial(async () => usageOf(await evictBeyond(await limitBytes(), await entries(), 0))),
  }
}
