import type { ReportDefinition } from '@contract'
import { AppError } from '../errors'

/**
 * Errors the builder can show beside the control they are about. `details.field` names a
 * top-level key of the report definition; `details.fields` repeats the message under that key
 * so the renderer's generic field-error reader (`ApiError.fieldErrors`) finds it too.
 */
// The definition's own keys (less the chart's look, which no request carries), not a second list of them.
export type BuilderField = Exclude<keyof ReportDefinition, 'chart'>

export function invalidField(field: BuilderField, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('validation', message, { field, fields: { [field]: [message] }, ...extra })
}

export type ReportOperation = 'time_series' | 'audience' | 'export'

/** Request fields a `bad_request` reason may name, and the builder field that sets each. */
const fieldOfParameter: Record<string, (operation: ReportOperation) => { field: BuilderField; part?: string }> = {
  start_date: () => ({ field: 'dates', part: 'start' }),
  end_date: () => ({ field: 'dates', part: 'end' }),
  chart_lines: () => ({ field: 'lines' }),
  limit: () => ({ field: 'categoryLimit' }),
  filters: () => ({ field: 'filters' }),
  filter_template: () => ({ field: 'filterLogic' }),
  data_filters: () => ({ field: 'metricConditions' }),
  data_filter_template: () => ({ field: 'metricConditionLogic' }),
  timezone: () => ({ field: 'timezone' }),
  granularity: () => ({ field: 'granularity' }),
  order_by: () => ({ field: 'sort' }),
  data_field: () => ({ field: 'metrics' }),
  data_fields: () => ({ field: 'metrics' }),
  split_by: (operation) => ({ field: operation === 'audience' ? 'audience' : 'breakdown' }),
  audience_rows_limit: () => ({ field: 'audience' }),
  audience_key: () => ({ field: 'audience' }),
}
const parameterPattern = new RegExp(`\\b(${Object.keys(fieldOfParameter).join('|')})\\b`)

/**
 * A platform `bad_request` whose reason names a request field gets `details.field` (and
 * `fields`) with the builder's name for it, so the UI shows the reason at that control.
 * Everything else passes through untouched.
 */
export function withBuilderField(error: unknown, operation: ReportOperation): unknown {
  if (!(error instanceof AppError) || error.details?.apiStatus !== 'bad_request') return error
  const reason = error.details.reason
  if (typeof reason !== 'string') return error
  const named = parameterPattern.exec(reason)?.[1]
  const resolve = named === undefined ? undefined : fieldOfParameter[named]
  if (resolve === undefined) return error
  const { field, part } = resolve(operation)
  return new AppError(error.code, error.message, {
    ...error.details,
    field,
    ...(part === undefined ? {} : { part }),
    fields: { [field]: [reason] },
  })
}
