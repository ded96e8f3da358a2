/**
 * The builder's fields an error can be shown at, and which of them each platform request
 * parameter sets. Main names the field when the platform refuses a request; the renderer puts
 * the sentence beside it. One map, so both agree (on `split_by` too).
 */
export type BuilderField =
  | 'project'
  | 'report'
  | 'dates.start'
  | 'dates.end'
  | 'timezone'
  | 'metrics'
  | 'granularity'
  | 'categoryLimit'
  | 'breakdown'
  | 'lines'
  | 'filters'
  | 'filterLogic'
  | 'metricConditions'
  | 'metricConditionLogic'
  | 'sort'
  | 'comparison'
  | 'audience.source'
  | 'audience.rowsLimit'
  | 'audience.breakdown'

/** The report calls whose parameters are mapped. */
export type ReportOperation = 'time_series' | 'audience' | 'export'

/** The platform's request parameters as builder fields (`split_by` of a chart or an export). */
export const PARAMETER_FIELDS = {
  project_name: 'project',
  slicer_name: 'report',
  start_date: 'dates.start',
  end_date: 'dates.end',
  timezone: 'timezone',
  data_field: 'metrics',
  data_fields: 'metrics',
  granularity: 'granularity',
  limit: 'categoryLimit',
  split_by: 'breakdown',
  chart_lines: 'lines',
  filters: 'filters',
  filter_template: 'filterLogic',
  data_filters: 'metricConditions',
  data_filter_template: 'metricConditionLogic',
  order_by: 'sort',
  audience_key: 'audience.source',
  audience_rows_limit: 'audience.rowsLimit',
} as const satisfies Record<string, BuilderField>

export type PlatformParameter = keyof typeof PARAMETER_FIELDS

export function isPlatformParameter(name: string): name is PlatformParameter {
  return Object.hasOwn(PARAMETER_FIELDS, name)
}

/** The builder field a parameter sets in a call: an audience call's `split_by` is the audience breakdown. */
export function fieldOfParameter(parameter: PlatformParameter, operation: ReportOperation): BuilderField {
  if (parameter === 'split_by' && operation === 'audience') return 'audience.breakdown'
  return PARAMETER_FIELDS[parameter]
}
