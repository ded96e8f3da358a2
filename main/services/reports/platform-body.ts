import { MAX_CHART_LINES, type ReportDefinition, type ReportInfoView } from '@contract'
import { LINE_SEPARATOR, TOTAL_LINE } from '../../../common/lines'
import type { ReportRequest } from '../reporting/schemas'
import { suggestGranularity, TIME_GRANULARITIES, type DayRange } from './dates'
import { invalidField } from './errors'
import { dataFilterFields, keyNamed, metricNamed, requireMetric, scopeFields, type FilterBody, type ReportScope } from './scope'

/**
 * A report definition (what the builder edits) turned into the platform's request bodies: the
 * chart's time series calls and the ranking calls, on top of the run's scope (scope.ts). Every
 * check that can be made before sending is made here and named after the builder's field.
 */

// The total's line name and the separator of several keys' values, as main and the renderer share them.
export { LINE_SEPARATOR, TOTAL_LINE }

/** One `order_by` term as the builder sends it (the checked wire shape is `WireOrderTerm`). */
export interface OrderTermBody {
  name: string
  direction: 'ASC' | 'DESC'
  mapping: 0 | 1
}

/* ---------- the chart ---------- */

export interface ChartPlan {
  /** The full name sent: `granularity_day`… or a key field. */
  granularity: string
  isTime: boolean
  breakdown: string[]
  /** Only category charts are sorted: a time axis stays in time order. */
  orderBy: OrderTermBody[] | null
  /** `limit` (top N categories), only for a key-field granularity. */
  limit: number | null
  /** Lines the definition asks for, Total included. */
  lineCount: number
}

/** The definition's granularity as the platform names it: `auto` resolved from the range, a time granularity as its key (`granularity_day`). */
export function granularityName(definition: ReportDefinition, days: number): string {
  const asked = definition.granularity.trim()
  if (asked === 'auto') return `granularity_${suggestGranularity(days)}`
  // The spec's example uses the short form (`day`); the full name is what info lists.
  return TIME_GRANULARITIES.some((granularity) => granularity === asked) ? `granularity_${asked}` : asked
}

function resolveGranularity(definition: ReportDefinition, info: ReportInfoView, days: number): { name: string; isTime: boolean } {
  const asked = definition.granularity.trim()
  const name = granularityName(definition, days)
  if (asked === 'auto') return { name, isTime: true }
  const key = keyNamed(info, name)
  const isTime = TIME_GRANULARITIES.some((granularity) => `granularity_${granularity}` === name)
  if (!key && !isTime) throw invalidField('granularity', `"${asked}" is neither a time granularity nor a key field of this report.`)
  return { name, isTime: key?.isTime ?? isTime }
}

/** How many lines the definition asks for, Total included (before any ranking call). */
export function plannedLineCount(definition: ReportDefinition): number {
  if (definition.breakdown.length === 0) return 1
  const total = definition.lines.includeTotal ? 1 : 0
  return (definition.lines.mode === 'top' ? definition.lines.count : definition.lines.values.length) + total
}

export function planChart(definition: ReportDefinition, info: ReportInfoView, scope: ReportScope): ChartPlan {
  for (const metric of definition.metrics) requireMetric(info, metric, 'metrics')
  const granularity = resolveGranularity(definition, info, scope.range.days)
  definition.breakdown.forEach((key, index) => {
    if (!keyNamed(info, key)) throw invalidField('breakdown', `"${key}" is not a key field of this report.`)
    if (definition.breakdown.indexOf(key) !== index) throw invalidField('breakdown', `"${key}" is listed twice in the breakdown.`)
  })

  const lineCount = plannedLineCount(definition)
  if (lineCount > MAX_CHART_LINES) {
    throw invalidField(
      'lines',
      `${lineCount} lines were asked for (Total included), but a chart takes at most ${MAX_CHART_LINES}. Ask for fewer lines or leave Total out.`,
    )
  }
  if (definition.breakdown.length > 0 && lineCount === 0) throw invalidField('lines', 'Pick at least one line, or include Total.')
  if (definition.breakdown.length > 0 && definition.lines.mode === 'pick') {
    for (const value of definition.lines.values) {
      const parts = value.split(LINE_SEPARATOR).length
      if (parts !== definition.breakdown.length) {
        throw invalidField(
          'lines',
          `The line "${value.split(LINE_SEPARATOR).join(' / ')}" has ${parts} value${parts === 1 ? '' : 's'}, but the breakdown has ${definition.breakdown.length} keys.`,
        )
      }
    }
  }
  if (definition.lines.mode === 'top' && definition.lines.by !== null) requireMetric(info, definition.lines.by, 'lines')

  let orderBy: OrderTermBody[] | null = null
  if (!granularity.isTime) {
    const terms = definition.sort.map((rule): OrderTermBody => {
      if (!metricNamed(info, rule.field) && rule.field !== granularity.name) {
        throw invalidField('sort', `A category chart sorts by a metric or by its own key (${granularity.name}); "${rule.field}" is neither.`)
      }
      return { name: rule.field, direction: rule.direction, mapping: rule.byName ? 1 : 0 }
    })
    // Without a sort each metric's call would pick its own top categories; ranking them all by
    // the first metric keeps one shared x-axis.
    orderBy = terms.length > 0 ? terms : [{ name: definition.metrics[0] ?? '', direction: 'DESC', mapping: 0 }]
  }
  return {
    granularity: granularity.name,
    isTime: granularity.isTime,
    breakdown: definition.breakdown,
    orderBy,
    limit: granularity.isTime ? null : definition.categoryLimit,
    lineCount,
  }
}

/** The chart lines of a run: the ranked or picked values, then Total when asked for (always without a breakdown). */
export function chartLines(definition: ReportDefinition, values: readonly string[]): string[] {
  if (definition.breakdown.length === 0) return [TOTAL_LINE]
  return [...values, ...(definition.lines.includeTotal ? [TOTAL_LINE] : [])]
}

export function timeSeriesBody(scope: ReportScope, chart: ChartPlan, metric: string, lines: readonly string[], days: DayRange = scope.days): ReportRequest {
  return {
    ...scopeFields(scope, days),
    granularity: chart.granularity,
    split_by: chart.breakdown,
    chart_lines: [...lines],
    data_field: metric,
    ...dataFilterFields(scope),
    ...(chart.orderBy === null ? {} : { order_by: chart.orderBy }),
    ...(chart.limit === null ? {} : { limit: chart.limit }),
  }
}

/* ---------- ranking ---------- */

function descending(metric: string): OrderTermBody[] {
  return [{ name: metric, direction: 'DESC', mapping: 0 }]
}

/**
 * The top values of one key by a metric over the whole range: a time series whose x-axis is
 * the key, Total only, sorted by the metric and cut at `count`. The rows' `__time__` are the values.
 */
export function rankingBody(
  scope: ReportScope,
  key: string,
  metric: string,
  count: number,
  filters: FilterBody[] = scope.filters,
  filterTemplate: string | null = scope.filterTemplate,
): ReportRequest {
  return {
    ...scopeFields(scope, scope.days, filters, filterTemplate),
    granularity: key,
    split_by: [],
    chart_lines: [TOTAL_LINE],
    data_field: metric,
    ...dataFilterFields(scope),
    order_by: descending(metric),
    limit: count,
  }
}

/** The top combinations of several keys: an export sorted by the metric, of which only the first rows are read. */
export function exportRankingBody(scope: ReportScope, keys: readonly string[], metric: string): ReportRequest {
  return {
    ...scopeFields(scope),
    split_by: [...keys],
    data_fields: [metric],
    ...dataFilterFields(scope),
    order_by: descending(metric),
    include_mappings: 0,
    include_total: 0,
    export_format: 'csv',
  }
}
