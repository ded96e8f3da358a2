import type { LineSelection, ReportDefinition, TimezoneRule } from '@contract'

/*
 * What a builder definition can hold (the bounds of the contract's reportDefinitionSchema) and what
 * a definition starts from. A paste checks each part against these itself, so it can drop one
 * filter or metric with a sentence instead of refusing the whole request at the final check.
 * They live in this one file, apart from the readers, so that taking them from a shared layer
 * later changes this file only.
 */

export const MAX_NAME_LENGTH = 200
/** Metrics a chart takes. */
export const MAX_METRICS = 8
/** Keys a breakdown (split_by, category) takes. */
export const MAX_BREAKDOWN_KEYS = 5
export const MAX_FILTERS = 50
export const MAX_FILTER_VALUES = 1_000
export const MAX_FILTER_VALUE_LENGTH = 1_000
export const MAX_SORT_RULES = 10
export const MAX_DATE_LENGTH = 40
export const MAX_CONDITION_VALUE_LENGTH = 40
export const MAX_CHART_LINE_LENGTH = 2_000
/** `limit`: the categories a chart keeps. */
export const CATEGORY_LIMIT = { min: 1, max: 10_000 } as const
export const AUDIENCE_ROWS_LIMIT = { min: 10_000, max: 10_000_000 } as const
/** Whole hours from UTC, as `timezone` and the web UI's `tzo` give them. */
export const UTC_OFFSET = { min: -12, max: 12 } as const

/** Names a list field may hold before it is refused whole: far above any request (the platform takes 5 keys, 50 lines). */
export const MAX_LISTED_NAMES = 1_000

export const defaultDefinitionParts = {
  dates: { start: '-7d', end: 'yesterday' },
  timezone: { mode: 'report' } as TimezoneRule,
  granularity: 'auto',
  categoryLimit: 30,
  lines: { mode: 'top', count: 10, by: null, includeTotal: true } as LineSelection,
  comparison: 'none' as const,
  chart: { type: 'line' as const, hidden: [], showMarkers: true },
  audience: { source: null, rowsLimit: 1_000_000, breakdown: [] },
} satisfies Partial<ReportDefinition>
