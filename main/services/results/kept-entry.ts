import { promises as fs } from 'node:fs'
import { z } from 'zod'
import { audienceResultSchema, reportDefinitionSchema, seriesSchema, timeSeriesResultSchema } from '@contract'
import { judgeDocument, moveAside, readJsonFile, type JsonFileRead } from '../files/json-file'
import { decodeKeptFile, splitValues } from './kept-file'

/**
 * What one kept result file holds (its header's schema, and the one-document JSON files of the
 * first versions) and how it is read back and checked; the cache's index of them is here too.
 * result-cache.ts decides what is kept and for how long.
 */

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
export const FORMAT_VERSION = 2
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

export type KeptEntry =
  | { preset: string | null; ranAt: string; kind: 'chart'; result: z.output<typeof timeSeriesResultSchema> }
  | { preset: string | null; ranAt: string; kind: 'audience'; result: z.output<typeof audienceResultSchema> }

export const indexSchema = z.object({
  version: z.literal(1),
  entries: z.array(z.object({ profileId: z.string(), key: z.string(), bytes: z.number(), usedAt: z.string() })),
})
export type IndexEntry = z.output<typeof indexSchema>['entries'][number]

/**
 * The entry's file read and checked, as `readJsonFile` reads a JSON file: one that is not what it
 * should be is moved aside. No `.kept` file: the first versions' `.json` file, if there is one.
 */
export async function readKeptEntry(filePath: string, legacyFilePath: string, now: () => Date): Promise<JsonFileRead<KeptEntry>> {
  let bytes: Buffer
  try {
    bytes = await fs.readFile(filePath)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return moveAside(filePath, `it could not be read (${(error as Error).message})`, now())
    return readJsonFile(legacyFilePath, legacyFileSchema, now)
  }
  const judged = judgeKeptFile(bytes)
  return 'problem' in judged ? moveAside(filePath, judged.problem, now()) : { state: 'ok', value: judged.value }
}

/** A kept result file's bytes checked whole, header and values: what `readKeptEntry` reads, and what the cache checks before writing one. */
export function judgeKeptFile(bytes: Buffer): { value: KeptEntry } | { problem: string } {
  const decoded = decodeKeptFile(bytes)
  if ('problem' in decoded) return decoded
  const judged = judgeDocument(decoded.header, headerSchema, { version: FORMAT_VERSION })
  if ('problem' in judged) return judged
  const header = judged.value
  if (header.kind === 'audience') {
    return decoded.values.length === 0 ? { value: header } : { problem: 'its values do not match the counts in its header' }
  }
  if (header.valueCounts.length !== header.result.series.length) return { problem: 'its header counts values for another number of series' }
  const values = splitValues(decoded.values, header.valueCounts)
  if (!Array.isArray(values)) return values
  const series = header.result.series.map((entry, index) => ({ ...entry, values: values[index] ?? [] }))
  return { value: { ...header, result: { ...header.result, series } } }
}
