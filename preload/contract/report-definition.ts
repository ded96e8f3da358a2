/**
 * What a report is, as the builder edits it and a preset saves it: the definition and its parts
 * (dates, timezone, filters, metric conditions, sort, lines, chart, audience), bounded by the
 * limits in common/limits.ts. reports.ts holds the platform's description of a report and what a
 * run brings back.
 */
import { z } from 'zod'
import { REPORT_LIMITS } from '../../common/limits'
import { pivotLayoutSchema } from './pivot-layout'

/** A date as the API's grammar spells it: `YYYY-MM-DD`, `today`, `-7d`, `-1m_first`, `-1d_m_first`… Checked in main. */
export const dateTokenSchema = z.string().trim().min(1, 'Required').max(40)

/** Whole-hour UTC offsets only: the platform has no named zones and no half hours. */
export const utcOffsetSchema = z.number().int().min(REPORT_LIMITS.utcOffsetHours.min).max(REPORT_LIMITS.utcOffsetHours.max)

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
        /** "Compare every line": each line's comparison drawn, not only the Total's (absent: the Total's). */
        compareEveryLine: z.boolean().optional(),
        /** "Show all" asked for every line; absent, a chart of more than 10 lines draws the 10 largest until lines are toggled. */
        allLines: z.boolean().optional(),
        /** The Pivot tab's layout; absent until the user arranges one (older presets never have it). */
        pivot: pivotLayoutSchema.optional(),
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
