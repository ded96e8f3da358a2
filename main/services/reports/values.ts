import type { ReportDefinition, ReportFilter, ReportInfoView } from '@contract'
import { AppError } from '../errors'
import type { ReportingClient } from '../reporting/client'
import { topValuesOfKey, type RankedValue } from './ranking'
import { planScope, type ClockContext } from './scope'

export interface ValuesQuery {
  key: string
  text: string
  limit: number
}

/**
 * Values of a key that contain the text (in the value or, for keys with names, in the name),
 * biggest first by the definition's first metric, for filter suggestions and the line picker.
 *
 * The definition's dates and timezone apply. Its filters on other keys apply too, so the
 * picker offers what the chart can show, but not its filters on this key (they would hide the
 * very values being looked for), and none at all when filter logic combines them (dropping one
 * would change what the logic means). Metric conditions do not apply.
 */
export async function searchValues(
  context: { reporting: ReportingClient; info: ReportInfoView; clock: ClockContext },
  definition: ReportDefinition,
  query: ValuesQuery,
  signal: AbortSignal,
): Promise<RankedValue[]> {
  const key = context.info.keyFields.find((field) => field.name === query.key)
  if (!key) throw new AppError('validation', `"${query.key}" is not a key field of ${context.info.project}/${context.info.report}.`, { key: query.key })
  const others = definition.filterLogic.trim() === '' ? definition.filters.filter((filter) => filter.key !== query.key) : []
  const text = query.text.trim()
  const search: ReportFilter[] =
    text === '' ? [] : [{ key: query.key, match: 'contains', values: [text], caseInsensitive: true, searchNames: key.mapping !== null }]
  const scope = planScope({ ...definition, filters: [...others, ...search], filterLogic: '' }, context.info, context.clock, { dataFilters: false })
  const metric = definition.metrics[0] ?? ''
  return topValuesOfKey(context.reporting, scope, query.key, metric, query.limit, signal)
}
