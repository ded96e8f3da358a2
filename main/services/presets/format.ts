import { z } from 'zod'
import { fullGranularity } from '../../../common/granularity'
import { presetNameSchema, reportDefinitionSchema, type Preset } from '@contract'
import { unreadableWrite } from '../files/checked-write'
import { describeIssue, migrateDocument, type DocumentMigrations, type DocumentRefusal } from '../files/versioned-document'

/**
 * A preset on disk: one human-readable JSON file, written in one stable shape (keys in the
 * order below, two-space indent, a final newline) so a team can keep presets in git and see
 * small diffs. `version` is the format; older formats are migrated when read, newer ones are
 * refused with a sentence (never rewritten by an older app).
 *
 * Format history:
 * - 0: the builder's first draft: dates `{from, to}`, one `metric`, the timezone a number or
 *   null, lines `{top}` or `{values}`, one optional sort, the chart type as a string.
 * - 1: the `ReportDefinition` of preload/contract/report-definition.ts as it is. A short time
 *   granularity (`day`, as the demo's first seed wrote and the spec's example spells it) is read as
 *   its key (`granularity_day`), which the builder knows; the file keeps it until it is saved again.
 */
export const PRESET_FORMAT = 1

export const presetFileSchema = z.object({
  version: z.literal(PRESET_FORMAT),
  name: presetNameSchema,
  description: z.string().max(2_000),
  savedAt: z.string(),
  definition: reportDefinitionSchema,
})
export type PresetFile = z.infer<typeof presetFileSchema>

/** Several presets in one file, as "Export" writes them when more than one is chosen. */
export const BUNDLE_FORMAT = 'adopsdesk-presets'

/* ---------- format 0 ---------- */

const draftFilterSchema = z.object({
  key: z.string(),
  match: z.string(),
  values: z.array(z.string()),
  caseInsensitive: z.boolean().optional(),
})

const formatZeroSchema = z.object({
  version: z.literal(0),
  name: z.string(),
  savedAt: z.string(),
  definition: z.object({
    project: z.string(),
    report: z.string(),
    dates: z.object({ from: z.string(), to: z.string() }),
    /** null: the report's own timezone. */
    timezone: z.number().int().nullable(),
    metric: z.string(),
    granularity: z.string(),
    breakdown: z.array(z.string()),
    lines: z.union([z.object({ top: z.number().int(), total: z.boolean() }), z.object({ values: z.array(z.string()), total: z.boolean() })]),
    filters: z.array(draftFilterSchema),
    filterLogic: z.string().optional(),
    conditions: z.array(z.object({ metric: z.string(), match: z.string(), value: z.number() })).optional(),
    sort: z
      .object({ field: z.string(), direction: z.enum(['asc', 'desc']) })
      .nullable()
      .optional(),
    chart: z.enum(['line', 'area', 'stacked', 'bar']).optional(),
  }),
})

/** Format 0 → 1. Everything format 0 did not know takes the builder's default. */
export function migrateFormatZero(raw: unknown): unknown {
  const { name, savedAt, definition: old } = formatZeroSchema.parse(raw)
  return {
    version: 1,
    name,
    description: '',
    savedAt,
    definition: {
      project: old.project,
      report: old.report,
      dates: { start: old.dates.from, end: old.dates.to },
      timezone: old.timezone === null ? { mode: 'report' } : { mode: 'fixed', offset: old.timezone },
      metrics: [old.metric],
      granularity: old.granularity,
      categoryLimit: 30,
      breakdown: old.breakdown,
      lines:
        'top' in old.lines
          ? { mode: 'top', count: old.lines.top, by: null, includeTotal: old.lines.total }
          : { mode: 'pick', values: old.lines.values, includeTotal: old.lines.total },
      filters: old.filters.map((filter) => ({
        key: filter.key,
        match: filter.match,
        values: filter.values,
        caseInsensitive: filter.caseInsensitive ?? false,
        searchNames: false,
      })),
      filterLogic: old.filterLogic ?? '',
      metricConditions: (old.conditions ?? []).map((condition) => ({ metric: condition.metric, match: condition.match, value: String(condition.value) })),
      metricConditionLogic: '',
      sort: old.sort ? [{ field: old.sort.field, direction: old.sort.direction === 'asc' ? 'ASC' : 'DESC', byName: false }] : [],
      comparison: 'none',
      chart: { type: old.chart ?? 'line', hidden: [], showMarkers: true },
      audience: { source: null, rowsLimit: 1_000_000, breakdown: [] },
    },
  }
}

/** One step per format, from the format it reads to the next one. */
const migrations: DocumentMigrations = { 0: migrateFormatZero }

/** `newer` and `hidden` are left where they are (listed as refused); `invalid` is moved aside. */
export type PresetRead = { state: 'ok'; preset: Preset } | DocumentRefusal

/** A parsed preset document of any format: migrated step by step to the current one and checked. */
export function readPresetDocument(parsed: unknown): PresetRead {
  const migrated = migrateDocument(parsed, { format: PRESET_FORMAT, migrations, noun: 'preset' })
  if (migrated.state !== 'migrated') return migrated
  const checked = presetFileSchema.safeParse(migrated.document)
  if (!checked.success) return { state: 'invalid', reason: `its content is not a preset: ${describeIssue(checked.error)}` }
  const { name, description, savedAt, definition } = checked.data
  return { state: 'ok', preset: { name, description, savedAt, definition: { ...definition, granularity: fullGranularity(definition.granularity) } } }
}

/** The file's text: the current format, keys in the schema's order, 2-space indent, final newline. */
export function presetFileText(preset: Preset): string {
  const text = `${JSON.stringify(canonicalFile(preset), null, 2)}\n`
  // Read back as the folder will read it: a file it would refuse is never written.
  const readBack = readPresetDocument(JSON.parse(text))
  if (readBack.state !== 'ok') throw unreadableWrite(`The preset “${preset.name}”`, readBack.reason)
  return text
}

/**
 * Parsing through the schema puts every key in its declared order, whatever order the caller built it in;
 * a preset the schema refuses is refused as a `storage` error with a sentence, and nothing is written.
 */
export function canonicalFile(preset: Preset): PresetFile {
  const checked = presetFileSchema.safeParse({
    version: PRESET_FORMAT,
    name: preset.name,
    description: preset.description,
    savedAt: preset.savedAt,
    definition: preset.definition,
  })
  if (!checked.success) throw unreadableWrite(`The preset “${preset.name}”`, `its content is not a preset: ${describeIssue(checked.error)}`)
  return checked.data
}

export function bundleText(presets: readonly Preset[]): string {
  return `${JSON.stringify({ format: BUNDLE_FORMAT, version: 1, presets: presets.map(canonicalFile) }, null, 2)}\n`
}

/** The presets in a file given to Import: one preset document, or a bundle of them. */
export function readImportText(text: string): { presets: Preset[]; problems: string[] } | { problem: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    return { problem: `it is not valid JSON (${(error as Error).message})` }
  }
  const record = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  if (record !== null && record.format === BUNDLE_FORMAT) {
    if (!Array.isArray(record.presets)) return { problem: 'it is a presets bundle without a "presets" list' }
    const presets: Preset[] = []
    const problems: string[] = []
    record.presets.forEach((item, index) => {
      const read = readPresetDocument(item)
      if (read.state === 'ok') presets.push(read.preset)
      else problems.push(`preset ${index + 1} could not be read because ${read.reason}`)
    })
    return { presets, problems }
  }
  const read = readPresetDocument(parsed)
  if (read.state !== 'ok') return { problem: read.reason }
  return { presets: [read.preset], problems: [] }
}
