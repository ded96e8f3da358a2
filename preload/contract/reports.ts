/**
 * Reports: the platform's description of a report (`info`), what a run brings back to draw, and
 * the channels (what a report is, the definition, is report-definition.ts).
 *
 * The renderer never builds a platform request: it sends a definition and main resolves the
 * dates, ranks the lines, builds one request per metric, runs them, reduces long series and
 * answers a result that is ready to paint. The same code serves the command line and presets.
 */
import { z } from 'zod'
import { channel, profileRef, requestId } from './primitives'
import { dateTokenSchema, reportDefinitionSchema, timezoneRuleSchema, utcOffsetSchema } from './report-definition'

/* ---------- the platform's description of a report, as the builder uses it ---------- */

export const keyFieldInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  type: z.enum(['int', 'text']),
  /** The mapping's name when values have names (enables "also match names" and Name columns). */
  mapping: z.string().nullable(),
  segmented: z.boolean(),
  /** A group the field belongs to, for the picker. */
  group: z.string().nullable(),
  annotation: z.string(),
  /** One of the six `granularity_*` keys. */
  isTime: z.boolean(),
})
export type KeyFieldInfo = z.infer<typeof keyFieldInfoSchema>

export const dataFieldInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  displayType: z.enum(['int', 'float', 'percent']),
  precision: z.number(),
  /** The platform's display pattern (`$#,##0.00`), when it gives one. */
  pattern: z.string().nullable(),
  /** The percent-of-total column: never, only when sorted by this field, or always (`show_percents` 0/1/2). */
  showPercents: z.enum(['never', 'whenSorted', 'always']),
  optional: z.boolean(),
  formula: z.string().nullable(),
  formulaDescription: z.string().nullable(),
  /** null for common fields; custom fields are shared or private. */
  access: z.enum(['shared', 'private']).nullable(),
  annotation: z.string(),
  /** Plain sums can be added up; derived and percent metrics never are. */
  additive: z.boolean(),
})
export type DataFieldInfo = z.infer<typeof dataFieldInfoSchema>

export const reportInfoViewSchema = z.object({
  project: z.string(),
  report: z.string(),
  timezone: z.number().nullable(),
  supportsTimezone: z.boolean(),
  firstDate: z.string().nullable(),
  lastDate: z.string().nullable(),
  keyFields: z.array(keyFieldInfoSchema),
  dataFields: z.array(dataFieldInfoSchema),
  audienceSources: z.array(z.object({ name: z.string(), description: z.string(), annotation: z.string() })),
  annotation: z.string().nullable(),
  /** When main fetched it from the platform. */
  fetchedAt: z.string(),
  /** Served from the copy on disk because the platform could not be asked; why, as a sentence. */
  offlineReason: z.string().nullable(),
})
export type ReportInfoView = z.infer<typeof reportInfoViewSchema>

/* ---------- what a run brings back ---------- */

export const resolvedRangeSchema = z.object({
  start: z.string(),
  end: z.string(),
  /** The whole-hour offset the request is sent with. */
  timezone: z.number(),
  days: z.number(),
  /** What the user should know about how the range was resolved (an OS offset rounded to whole hours…). */
  notes: z.array(z.string()).optional(),
})
export type ResolvedRange = z.infer<typeof resolvedRangeSchema>

export const seriesStatsSchema = z.object({
  /** null when the metric is not additive. */
  total: z.number().nullable(),
  average: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Change against the comparison series in percent (null without one, or from zero). */
  change: z.number().nullable(),
  points: z.number(),
})

export const seriesSchema = z.object({
  /** Stable: `<metric>|<line value>` or `<metric>|<line value>|compare`. */
  key: z.string(),
  metric: z.string(),
  /** The chart line as sent (`__total__`, or values joined by U+0002). */
  line: z.string(),
  /** "A / B", with the values' names where the platform gave them. */
  label: z.string(),
  role: z.enum(['line', 'total', 'comparison']),
  /** One per category (after reduction); null is a gap. */
  values: z.array(z.number().nullable()),
  stats: seriesStatsSchema,
})
export type Series = z.infer<typeof seriesSchema>

export const markerSchema = z.object({
  id: z.number(),
  /** The category it belongs on (`__time__` format). */
  date: z.string(),
  message: z.string(),
  author: z.string(),
  created: z.string(),
  edited: z.string(),
})
export type ChartMarker = z.infer<typeof markerSchema>

export const timeSeriesResultSchema = z.object({
  ranAt: z.string(),
  durationMs: z.number(),
  range: resolvedRangeSchema,
  comparisonRange: resolvedRangeSchema.nullable(),
  /** The granularity sent (a `granularity_*` key or a key field). */
  granularity: z.string(),
  /** x-axis categories: the API's `__time__` strings as given, never a browser-timezone date. */
  categories: z.array(z.string()),
  /** The comparison's own categories, aligned by position with `categories`. */
  comparisonCategories: z.array(z.string()),
  /**
   * On a category chart (granularity = a key field): category → its name, from the rows'
   * `__mapping__`, for the categories that have one. Absent on a time axis.
   */
  categoryLabels: z.record(z.string(), z.string()).optional(),
  series: z.array(seriesSchema),
  markers: z.array(markerSchema),
  /** Points per series before reduction, and whether reduction was applied. */
  sourcePoints: z.number(),
  reduced: z.boolean(),
  /** Things the user should know about this result (a filter logic the chart may ignore…). */
  notes: z.array(z.string()),
})
export type TimeSeriesView = z.infer<typeof timeSeriesResultSchema>

export const audienceValueSchema = z.object({ name: z.string(), value: z.number().nullable() })
export const audienceResultSchema = z.object({
  ranAt: z.string(),
  durationMs: z.number(),
  range: resolvedRangeSchema,
  source: z.string().nullable(),
  rowsLimit: z.number(),
  totals: z.array(audienceValueSchema),
  /** Percent, present when the platform worked on a compressed dataset. */
  confidenceRange: z.number().nullable(),
  recordsFound: z.number().nullable(),
  /** Days with data in the range, and the range's length. */
  daysWithData: z.number(),
  daysInRange: z.number(),
  rows: z.array(z.object({ name: z.array(z.string()), label: z.string(), values: z.array(audienceValueSchema), confidenceRange: z.number().nullable() })),
})
export type AudienceView = z.infer<typeof audienceResultSchema>

const target = { profileId: profileRef }
const definitionInput = { ...target, definition: reportDefinitionSchema }
/** The preset a run comes from, so its result is kept under the preset and the history names it (presets.ts). */
const fromPreset = { preset: z.string().trim().min(1).max(120).nullable().optional() }

export const reportsChannels = {
  /** The report's description: from the platform when reachable (then kept on disk), else the copy on disk. */
  info: channel(
    z.object({ ...target, project: z.string().min(1).max(200), report: z.string().min(1).max(200), refresh: z.boolean().optional() }).strict(),
    reportInfoViewSchema,
  ),
  /** Project/report pairs this connection has opened before (newest first), for the picker. */
  known: channel(z.object(target).strict(), z.array(z.object({ project: z.string(), report: z.string(), fetchedAt: z.string() }))),
  /** The absolute dates a pair of tokens stands for now, in the rule's offset; errors name the field. */
  resolveDates: channel(
    z.object({ start: dateTokenSchema, end: dateTokenSchema, timezone: timezoneRuleSchema, reportTimezone: utcOffsetSchema.nullable() }).strict(),
    resolvedRangeSchema,
  ),
  /** Runs the chart: ranking call for top N, one call per metric, the comparison period. Cancellable by request id. */
  run: channel(
    z.object({ ...definitionInput, ...fromPreset, requestId: requestId.optional(), pointBudget: z.number().int().min(50).max(20_000).optional() }).strict(),
    timeSeriesResultSchema,
  ),
  audience: channel(z.object({ ...definitionInput, ...fromPreset, requestId: requestId.optional() }).strict(), audienceResultSchema),
  /** Values of a key (with names) that contain the text, ranked by the first metric; for filters and the line picker. */
  values: channel(
    z
      .object({
        ...definitionInput,
        key: z.string().min(1).max(200),
        text: z.string().max(200),
        limit: z.number().int().min(1).max(1_000),
        requestId: requestId.optional(),
      })
      .strict(),
    z.array(z.object({ value: z.string(), name: z.string().nullable() })),
  ),
} as const
