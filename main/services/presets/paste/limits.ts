import type { ReportDefinition } from '@contract'
import { defaultDefinitionParts as builderDefaults } from '../../../../common/definition'
import { REPORT_LIMITS } from '../../../../common/limits'

/*
 * What a builder definition can hold (the bounds of the contract's reportDefinitionSchema) and what
 * a definition starts from. A paste checks each part against these itself, so it can drop one
 * filter or metric with a sentence instead of refusing the whole request at the final check.
 * The report limits and the defaults are the builder's own (common/); the rest bound what a
 * paste reads before the contract's final check.
 */

export const MAX_NAME_LENGTH = 200
/** Metrics a chart takes. */
export const MAX_METRICS = REPORT_LIMITS.metrics
/** Keys a breakdown (split_by, category) takes. */
export const MAX_BREAKDOWN_KEYS = REPORT_LIMITS.breakdownKeys
export const MAX_FILTERS = REPORT_LIMITS.filters
export const MAX_FILTER_VALUES = 1_000
export const MAX_FILTER_VALUE_LENGTH = 1_000
export const MAX_SORT_RULES = REPORT_LIMITS.sortRules
export const MAX_DATE_LENGTH = 40
export const MAX_CONDITION_VALUE_LENGTH = 40
export const MAX_CHART_LINE_LENGTH = 2_000
/** `limit`: the categories a chart keeps. */
export const CATEGORY_LIMIT = REPORT_LIMITS.categoryLimit
export const AUDIENCE_ROWS_LIMIT = REPORT_LIMITS.audienceRowsLimit
/** Whole hours from UTC, as `timezone` and the web UI's `tzo` give them. */
export const UTC_OFFSET = { min: -12, max: 12 } as const

/** Names a list field may hold before it is refused whole: far above any request (the platform takes 5 keys, 50 lines). */
export const MAX_LISTED_NAMES = 1_000

/** The builder's defaults (common/definition): one definition for the builder and the paste. */
export const defaultDefinitionParts = builderDefaults() satisfies Partial<ReportDefinition>
