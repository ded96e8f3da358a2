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
import { writeFileAtomic } from '../files/atomic'
import { createDocumentStore, noticeOnCorrupt } from '../files/document-store'
import { idOfSafeFileName, readJsonFile, safeFileName } from '../files/json-file'
import { createSerialQueue } from '../files/serial-queue'
import type { Notices } from '../notices'
import { definitionHash, resultKey } from './result-key'

/**
 * The last result of every run, per connection, so a report opens at once and offline:
 * `<userData>/results/<profile>/<key>.json`, with the definition, the request bodies as built
 * (before the client adds the token: nothing here is secret) and when it ran. The whole folder
 * is bounded by a size from the settings; the least recently used results go first.
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
 * A chart's values and categories checked by a plain loop: a kept result may hold 50 series of
 * 10,000 points, and checking each item through zod cost more than reading the file (the
 * categories alone ~10 ms of opening a preset). Everything else in the file is checked by its
 * schema as usual.
 */
const numbersOrGaps = z.custom<Array<number | null>>(
  (value) => Array.isArray(value) && value.every((item) => item === null || (typeof item === 'number' && Number.isFinite(item))),
  'Expected numbers or null',
)
const strings = z.custom<string[]>((value) => Array.isArray(value) && value.every((item) => typeof item === 'string'), 'Expected a list of texts')
const keptChartSchema = timeSeriesResultSchema.extend({
  categories: strings,
  comparisonCategories: strings,
  series: z.array(seriesSchema.extend({ values: numbersOrGaps })),
})

const requestSchema = z.object({ operation: z.enum(['time_series', 'audience', 'export']), body: z.record(z.string(), z.unknown()) })
const common = {
  version: z.literal(1),
  profileId: z.string(),
  preset: z.string().nullable(),
  definitionHash: z.string(),
  definition: reportDefinitionSchema,
  requests: z.array(requestSchema),
  ranAt: z.string(),
  storedAt: z.string(),
}
const entryFileSchema = z.discriminatedUnion('kind', [
  z.object({ ...common, kind: z.literal('chart'), result: keptChartSchema }),
  z.object({ ...common, kind: z.literal('audience'), result: audienceResultSchema }),
])

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
  const fileOf = (profileId: string, key: string) => path.join(folderOf(profileId), `${key}.json`)
  let reconciled = false

  /** The index as the files are: files it does not know are added (used when written), entries without a file dropped. */
  async function entries(): Promise<IndexEntry[]> {
    const current = (await index.read()).entries
    if (reconciled) return current
    reconciled = true
    const onDisk = new Map<string, IndexEntry>()
    const profiles = await fs.readdir(folder, { withFileTypes: true }).catch(() => [])
    for (const profile of profiles) {
      const profileId = profile.isDirectory() ? idOfSafeFileName(profile.name) : null
      if (profileId === null) continue
      const files = await fs.readdir(path.join(folder, profile.name)).catch(() => [] as string[])
      for (const name of files) {
        if (!/^[0-9a-f]{40}\.json$/.test(name)) continue
        const stat = await fs.stat(path.join(folder, profile.name, name)).catch(() => null)
        if (stat === null) continue
        const key = name.slice(0, -'.json'.length)
        onDisk.set(`${profileId}\u0000${key}`, { profileId, key, bytes: stat.size, usedAt: stat.mtime.toISOString() })
      }
    }
    const known = new Map(current.map((entry) => [`${entry.profileId}\u0000${entry.key}`, entry]))
    const merged = [...onDisk].map(([id, found]) => ({ ...found, usedAt: known.get(id)?.usedAt ?? found.usedAt }))
    if (merged.length !== current.length || merged.some((entry) => !known.has(`${entry.profileId}\u0000${entry.key}`))) {
      await index.write({ version: 1, entries: merged })
    }
    return merged
  }

  async function readEntry(profileId: string, key: string): Promise<z.output<typeof entryFileSchema> | null> {
    const read = await readJsonFile(fileOf(profileId, key), entryFileSchema, now)
    if (read.state === 'ok') return read.value
    if (read.state === 'corrupt') {
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
   * Removes the least recently used entries until the rest fits in `limit`, then writes the
   * index; the last `keepLast` entries (the one just written) are never removed.
   */
  async function evictBeyond(limit: number, kept: IndexEntry[], keepLast: number): Promise<IndexEntry[]> {
    const byUse = kept.slice(0, kept.length - keepLast).sort((left, right) => (left.usedAt < right.usedAt ? -1 : left.usedAt > right.usedAt ? 1 : 0))
    let total = kept.reduce((sum, entry) => sum + entry.bytes, 0)
    const evicted = new Set<IndexEntry>()
    for (const entry of byUse) {
      if (total <= limit) break
      await fs.rm(fileOf(entry.profileId, entry.key), { force: true })
      evicted.add(entry)
      total -= entry.bytes
    }
    const rest = kept.filter((entry) => !evicted.has(entry))
    await index.write({ version: 1, entries: rest })
    return rest
  }

  const usageOf = (known: IndexEntry[]) => ({ bytes: known.reduce((sum, entry) => sum + entry.bytes, 0), entries: known.length })

  return {
    put: (run) =>
      serial(async () => {
        const key = resultKey(run.kind, run.definition, run.preset)
        const storedAt = now().toISOString()
        const document = {
          version: 1,
          profileId: run.profileId,
          preset: run.preset,
          kind: run.kind,
          definitionHash: definitionHash(run.definition),
          definition: run.definition,
          requests: run.requests,
          ranAt: run.result.ranAt,
          storedAt,
          result: run.result,
        }
        const text = JSON.stringify(document)
        const bytes = Buffer.byteLength(text)
        const limit = await limitBytes()
        // A result bigger than the whole cache is not kept: it would push out everything else and still not fit.
        if (bytes > limit) return
        await writeFileAtomic(fileOf(run.profileId, key), text)
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
        const rest = (await entries()).filter((entry) => entry.profileId !== profileId)
        await index.write({ version: 1, entries: rest })
      }),

    usage: () => serial(async () => usageOf(await entries())),

    trim: () => serial(async () => usageOf(await evictBeyond(await limitBytes(), await entries(), 0))),
  }
}
