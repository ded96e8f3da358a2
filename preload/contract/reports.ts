/**
 * Reports: what a report is (a definition the builder edits and a preset saves), the platform's
 * description of a report (`info`), and what a run brings back to draw.
 *
 * The renderer never builds a platform request: it sends a definition and main resolves the
 * dates, ranks the lines, builds one request per metric, runs them, reduces long series and
 * answers a result that is ready to paint. The same code serves the command line and presets.
 */
import { z } from 'zod'
import { REPORT_LIMITS } from '../../common/limits'
import { channel, profileRef, requestId } from './primitives'

/* ---------- what the builder edits (and a preset saves) ---------- */

/** A date as the API's grammar spells it: `YYYY-MM-DD`, `today`, `-7d`, `-1m_first`, `-1d_m_first`… Checked in main. */
export const dateTokenSchema = z.string().trim().min(1, 'Required').max(40)

/** Whole-hour UTC offsets only: the platform has no named zones and no half hours. */
export const utcOffsetSchema = z.number().int().min(-12).max(12)

export const timezoneRuleSchema = z.discriminatedUnion('mode', [
  /** The report's own timezone from `info`. */
  z.object({ mode: z.literal('report') }).strict(),
  /** This computer's offset at the time the report runs (a preset follows its user). */
  z.object({ mode: z.literal('os') }).strict(),
  z.object({ mode: z.literal('fixed'), offset: utcOffsetSchema }).strict(),
])
export type TimezoneRule = z.infer<typeof timezoneRuleSchema>

/** The six of the spec plus the vendor's spellings; the last two are modes of their own. */
export const filterMatches = ['equals', 'not equals', 'contains', 'not contains', 'begins with', 'ends with', 'not begins with', 'not ends with'] as const
export type FilterMatch = (typeof filterMatches)[number]

export const reportFilterSchema = z
  .object({
    key: z.string().min(1).max(200),
    match: z.enum(filterMatches),
    values: z.array(z.string().max(1_000)).min(1, 'Give at least one value').max(1_000),
    caseInsensitive: z.boolean(),
    /** Also match the values' names (only for keys with a mapping). */
    searchNames: z.boolean(),
  })
  .strict()
export type ReportFilter = z.infer<typeof reportFilterSchema>

export const conditionMatches = ['>', '>=', '<', '<=', '=', '!='] as const
export const metricConditionSchema = z
  .object({
    metric: z.string().min(1).max(200),
    match: z.enum(conditionMatches),
    /** Kept as typed (the platform takes a string); main checks it is a number. */
    value: z.string().trim().min(1, 'Required').max(40),
  })
  .strict()
export type MetricCondition = z.infer<typeof metricConditionSchema>

export const sortRuleSchema = z
  .object({
    field: z.string().min(1).max(200),
    direction: z.enum(['ASC', 'DESC']),
    /** Sort by the mapping text (the value's name) instead of the value. */
    byName: z.boolean(),
  })
  .strict()
export type SortRule = z.infer<typeof sortRuleSchema>

export const MAX_CHART_LINES = REPORT_LIMITS.chartLines
export const lineSelectionSchema = z.discriminatedUnion('mode', [
  /** The top N values of the breakdown by a metric (the first metric when `by` is null), found by a ranking call. */
  z
    .object({ mode: z.literal('top'), count: z.number().int().min(1).max(MAX_CHART_LINES), by: z.string().max(200).nullable(), includeTotal: z.boolean() })
    .strict(),
  /** Values picked by hand; several keys' values joined by U+0002 as the API wants them. */
  z.object({ mode: z.literal('pick'), values: z.array(z.string().max(2_000)).max(MAX_CHART_LINES), includeTotal: z.boolean() }).strict(),
])
export type LineSelection = z.infer<typeof lineSelectionSchema>

export const chartTypes = ['line', 'area', 'stacked', 'bar'] as const
export type ChartType = (typeof chartTypes)[number]
export const comparisons = ['none', 'previous_period', 'previous_year'] as const
export type Comparison = (typeof comparisons)[number]

export const reportDefinitionSchema = z
  .object({
    project: z.string().trim().min(1, 'Required').max(200),
    report: z.string().trim().min(1, 'Required').max(200),
    dates: z.object({ start: dateTokenSchema, end: dateTokenSchema }).strict(),
    timezone: timezoneRuleSchema,
    /** One call per metric; several metrics share the chart, on a second axis when units differ. */
    metrics: z.array(z.string().min(1).max(200)).min(1, 'Pick a metric').max(REPORT_LIMITS.metrics),
    /** `auto` (suggested from the range), a time key (`granularity_day`…) or any key field (a category chart). */
    granularity: z.string().min(1).max(200),
    /** Top N categories when the granularity is a key field (the API's `limit`). */
    categoryLimit: z.number().int().min(REPORT_LIMITS.categoryLimit.min).max(REPORT_LIMITS.categoryLimit.max),
    /** Break down by these keys (`split_by`); empty: the total only. */
    breakdown: z.array(z.string().min(1).max(200)).max(REPORT_LIMITS.breakdownKeys),
    lines: lineSelectionSchema,
    filters: z.array(reportFilterSchema).max(REPORT_LIMITS.filters),
    /** `1 and (2 or 3)` over filter positions; empty: all filters apply. */
    filterLogic: z.string().max(2_000),
    metricConditions: z.array(metricConditionSchema).max(REPORT_LIMITS.metricConditions),
    metricConditionLogic: z.string().max(2_000),
    sort: z.array(sortRuleSchema).max(REPORT_LIMITS.sortRules),
    comparison: z.enum(comparisons),
    chart: z
      .object({
        type: z.enum(chartTypes),
        /** Series the user switched off in the legend, by series key. */
        hidden: z.array(z.string().max(2_000)).max(500),
        showMarkers: z.boolean(),
      })
      .strict(),
    audience: z
      .object({
        /** One of `info.audience_sources`; null: the first. */
        source: z.string().max(200).nullable(),
        /** Precision: records the platform reads (`audience_rows_limit`). */
        rowsLimit: z.number().int().min(REPORT_LIMITS.audienceRowsLimit.min).max(REPORT_LIMITS.audienceRowsLimit.max),
        breakdown: z.array(z.string().min(1).max(200)).max(REPORT_LIMITS.audienceBreakdownKeys),
      })
      .strict(),
  })
  .strict()
export type ReportDefinition = z.infer<typeof reportDefinitionSchema>

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
    z
      .object({ start: dateTokenSchema, end: dateTokenSchema, timezone: timezoneRuleSchema, reportTimezone: z.number().int().min(-12).max(12).nullable() })
      .strict(),
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
