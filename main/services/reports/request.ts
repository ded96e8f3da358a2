import { MAX_CHART_LINES, type FilterMatch, type ReportDefinition, type ReportInfoView, type ResolvedRange } from '@contract'
import { LINE_SEPARATOR, TOTAL_LINE } from '../../../common/lines'
import type { ReportRequest, ReportTarget } from '../reporting/schemas'
import { absoluteDates, chooseOffset, presentRange, resolveTokens, suggestGranularity, TIME_GRANULARITIES, type DayRange } from './dates'
import { invalidField } from './errors'
import { checkLogic } from './logic'

/**
 * A report definition (what the builder edits) turned into platform request bodies. Every
 * check that can be made before sending is made here and named after the builder's field.
 */

// The total's line name and the separator of several keys' values, as main and the renderer share them.
export { LINE_SEPARATOR, TOTAL_LINE }

export interface FilterBody {
  name: string
  match: string
  value: string[]
  case_insensitive: 0 | 1
  search_mappings: 0 | 1
}
export interface DataFilterBody {
  name: string
  match: string
  value: string
}
export interface OrderTerm {
  name: string
  direction: 'ASC' | 'DESC'
  mapping: 0 | 1
}

/** The spec's spellings; the two negative edge modes exist only in the vendor's spelling. */
const matchSent: Record<FilterMatch, string> = {
  equals: 'equals',
  'not equals': 'not equals',
  contains: 'contains',
  'not contains': 'not contains',
  'begins with': 'begins with',
  'ends with': 'ends with',
  'not begins with': 'not beginswith',
  'not ends with': 'not endswith',
}

export interface ClockContext {
  now: () => Date
  /** This computer's offset from UTC in minutes, east positive (`-new Date().getTimezoneOffset()`). */
  osOffsetMinutes: () => number
}

/** What every request of a run shares: the report, the dates, the timezone, the filters. */
export interface ReportScope {
  target: ReportTarget
  days: DayRange
  range: ResolvedRange
  offset: number
  /** Only reports that support it get a `timezone`; the others always use their own. */
  sendTimezone: boolean
  filters: FilterBody[]
  filterTemplate: string | null
  dataFilters: DataFilterBody[]
  dataFilterTemplate: string | null
  notes: string[]
}

function keyNamed(info: ReportInfoView, name: string) {
  return info.keyFields.find((field) => field.name === name)
}
function metricNamed(info: ReportInfoView, name: string) {
  return info.dataFields.find((field) => field.name === name)
}

function requireMetric(info: ReportInfoView, name: string, field: 'metrics' | 'metricConditions' | 'sort' | 'lines'): void {
  if (!metricNamed(info, name)) throw invalidField(field, `"${name}" is not a metric of ${info.project}/${info.report}.`)
}

const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/

/** `dataFilters: false` for calls that take none (audience): a half-typed condition must not block them. */
export function planScope(definition: ReportDefinition, info: ReportInfoView, clock: ClockContext, { dataFilters: withDataFilters = true } = {}): ReportScope {
  const chosen = chooseOffset(definition.timezone, {
    reportTimezone: info.timezone,
    supportsTimezone: info.supportsTimezone,
    osOffsetMinutes: clock.osOffsetMinutes(),
  })
  const days = resolveTokens(definition.dates.start, definition.dates.end, chosen.offset, clock.now())
  const notes = [...chosen.notes]
  const range = presentRange(days, chosen.offset, chosen.notes)
  if (info.lastDate !== null && range.start > info.lastDate) notes.push(`The report has data up to ${info.lastDate}; this range starts after it.`)
  else if (info.firstDate !== null && range.end < info.firstDate) notes.push(`The report has data from ${info.firstDate}; this range ends before it.`)

  const filters = definition.filters.map((filter, index): FilterBody => {
    if (!keyNamed(info, filter.key)) throw invalidField('filters', `Filter ${index + 1}: "${filter.key}" is not a key field of this report.`, { index })
    return {
      name: filter.key,
      match: matchSent[filter.match],
      value: filter.values,
      case_insensitive: filter.caseInsensitive ? 1 : 0,
      search_mappings: filter.searchNames ? 1 : 0,
    }
  })
  const filterTemplate = definition.filterLogic.trim() === '' ? null : definition.filterLogic.trim()
  if (filterTemplate !== null) {
    const problem = checkLogic(filterTemplate, filters.length, 'filter')
    if (problem !== null) throw invalidField('filterLogic', problem)
  }

  const conditions = withDataFilters ? definition.metricConditions : []
  const dataFilters = conditions.map((condition, index): DataFilterBody => {
    requireMetric(info, condition.metric, 'metricConditions')
    const text = condition.value.trim()
    if (!DECIMAL.test(text)) throw invalidField('metricConditions', `Condition ${index + 1}: "${condition.value}" is not a number.`, { index })
    // The platform takes the number as a string ("1"); a canonical spelling ("1.5", not "+01.50").
    return { name: condition.metric, match: condition.match, value: String(Number(text)) }
  })
  const dataFilterTemplate = !withDataFilters || definition.metricConditionLogic.trim() === '' ? null : definition.metricConditionLogic.trim()
  if (dataFilterTemplate !== null) {
    const problem = checkLogic(dataFilterTemplate, dataFilters.length, 'condition')
    if (problem !== null) throw invalidField('metricConditionLogic', problem)
  }

  return {
    target: { project_name: definition.project, slicer_name: definition.report },
    days,
    range,
    offset: chosen.offset,
    sendTimezone: info.supportsTimezone,
    filters,
    filterTemplate,
    dataFilters,
    dataFilterTemplate,
    notes,
  }
}

/** The fields every request body of a scope carries, for the given days. */
export function scopeFields(
  scope: ReportScope,
  days: DayRange = scope.days,
  filters: FilterBody[] = scope.filters,
  filterTemplate: string | null = scope.filterTemplate,
): ReportRequest {
  return {
    ...scope.target,
    ...absoluteDates(days),
    ...(scope.sendTimezone ? { timezone: scope.offset } : {}),
    ...(filters.length > 0 ? { filters } : {}),
    ...(filterTemplate !== null && filters.length > 0 ? { filter_template: filterTemplate } : {}),
  }
}

function dataFilterFields(scope: ReportScope): Record<string, unknown> {
  if (scope.dataFilters.length === 0) return {}
  return { data_filters: scope.dataFilters, ...(scope.dataFilterTemplate === null ? {} : { data_filter_template: scope.dataFilterTemplate }) }
}

/* ---------- the chart ---------- */

export interface ChartPlan {
  /** The full name sent: `granularity_day`… or a key field. */
  granularity: string
  isTime: boolean
  breakdown: string[]
  /** Only category charts are sorted: a time axis stays in time order. */
  orderBy: OrderTerm[] | null
  /** `limit` (top N categories), only for a key-field granularity. */
  limit: number | null
  /** Lines the definition asks for, Total included. */
  lineCount: number
}

function resolveGranularity(definition: ReportDefinition, info: ReportInfoView, days: number): { name: string; isTime: boolean } {
  const asked = definition.granularity.trim()
  if (asked === 'auto') return { name: `granularity_${suggestGranularity(days)}`, isTime: true }
  // The spec's example uses the short form (`day`); the full name is what info lists.
  const name = TIME_GRANULARITIES.some((granularity) => granularity === asked) ? `granularity_${asked}` : asked
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

  let orderBy: OrderTerm[] | null = null
  if (!granularity.isTime) {
    const terms = definition.sort.map((rule): OrderTerm => {
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

function descending(metric: string): OrderTerm[] {
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
