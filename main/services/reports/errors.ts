import type { ReportDefinition } from '@contract'
import { AppError } from '../errors'
import { fieldOfParameter, isPlatformParameter, PARAMETER_FIELDS, type ReportOperation } from '../../../common/fields'

/**
 * Errors the builder can show beside the control they are about. `details.field` names a
 * top-level key of the report definition; `details.fields` repeats the message under that key
 * so the renderer's generic field-error reader (`ApiError.fieldErrors`) finds it too.
 */
// The definition's own keys (less the chart's look, which no request carries), not a second list of them.
export type DefinitionSection = Exclude<keyof ReportDefinition, 'chart'>

export function invalidField(field: DefinitionSection, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('validation', message, { field, fields: { [field]: [message] }, ...extra })
}

export type { ReportOperation }

const parameterPattern = new RegExp(`\\b(${Object.keys(PARAMETER_FIELDS).join('|')})\\b`)

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
  if (named === undefined || !isPlatformParameter(named)) return error
  // Main names the definition's top-level key (`audience`, `dates`); `part` says which end of the dates.
  const [field, rest] = fieldOfParameter(named, operation).split('.') as [DefinitionSection, string | undefined]
  const part = field === 'dates' ? rest : undefined
  return new AppError(error.code, error.message, {
    ...error.details,
    field,
    ...(part === undefined ? {} : { part }),
    fields: { [field]: [reason] },
  })
}
