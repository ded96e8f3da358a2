import type { MetricCondition, ReportFilter, SortRule, TimezoneRule } from '@contract'
import { AppError } from '../../errors'

/*
 * What every reader (a request body, a web-UI link) hands to the assembly: the shared middle of
 * the paste, so the readers never need to know about the builder's base and the assembly never
 * needs to know where a value was read from.
 */

export type ReadingKind = 'time_series' | 'audience' | 'export' | 'url'

/** The platform's name for the total line among `chart_lines`. */
export { TOTAL_LINE } from '../../../../common/lines'

/** What the paste said, before it is laid over the base. Absent: the paste did not say. */
export interface Reading {
  kind: ReadingKind
  project?: string
  report?: string
  start?: string
  end?: string
  timezone?: TimezoneRule
  metrics?: string[]
  granularity?: string
  categoryLimit?: number
  breakdown?: string[]
  /** The chart lines as sent (`__total__` included), before they meet the breakdown. */
  chartLines?: string[]
  filters: ReportFilter[]
  filterLogic?: string
  metricConditions: MetricCondition[]
  metricConditionLogic?: string
  sort: SortRule[]
  audienceSource?: string | null
  audienceRowsLimit?: number
  unread: string[]
}

/** The whole paste is refused (nothing in it could be read): a validation error on the text field. */
export function notUnderstood(message: string): AppError {
  return new AppError('validation', message, { fields: { text: [message] } })
}
