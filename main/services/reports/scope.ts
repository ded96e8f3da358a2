import type { FilterMatch, ReportDefinition, ReportInfoView, ResolvedRange } from '@contract'
import type { ReportRequest, ReportTarget } from '../reporting/schemas'
import { absoluteDates, chooseOffset, presentRange, resolveTokens, type DayRange } from './dates'
import { invalidField } from './errors'
import { checkLogic } from './logic'

/**
 * What every platform request of a run shares, planned from a report definition: the report,
 * the dates, the timezone, the key filters and the metric conditions (data filters). Every
 * check that can be made before sending is made here and named after the builder's field;
 * platform-body.ts builds each call's body on top of it.
 */

/** A key filter as the builder sends it (the checked wire shape is `WireFilter`). */
export interface FilterBody {
  name: string
  match: string
  value: string[]
  case_insensitive: 0 | 1
  search_mappings: 0 | 1
}
/** A metric condition as the builder sends it (the checked wire shape is `WireDataFilter`). */
export interface DataFilterBody {
  name: string
  match: string
  value: string
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

export function keyNamed(info: ReportInfoView, name: string) {
  return info.keyFields.find((field) => field.name === name)
}
export function metricNamed(info: ReportInfoView, name: string) {
  return info.dataFields.find((field) => field.name === name)
}

export function requireMetric(info: ReportInfoView, name: string, field: 'metrics' | 'metricConditions' | 'sort' | 'lines'): void {
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

export function dataFilterFields(scope: ReportScope): Record<string, unknown> {
  if (scope.dataFilters.length === 0) return {}
  return { data_filters: scope.dataFilters, ...(scope.dataFilterTemplate === null ? {} : { data_filter_template: scope.dataFilterTemplate }) }
}
