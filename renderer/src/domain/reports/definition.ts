import type { DataFieldInfo, KeyFieldInfo, ReportDefinition, ReportInfoView } from '@contract'
import { DEFAULT_TOP_LINES, defaultDefinitionParts } from '../../../../common/definition'
import { checkFilterLogic } from './filterLogic'
import { linesProblem } from './lines'

/** What the builder starts with for a report: its first everyday metric, last 7 days, top 10 + Total, a line chart. */
export function defaultDefinition(info: ReportInfoView): ReportDefinition {
  const metric = info.dataFields.find((field) => !field.optional) ?? info.dataFields[0]
  // The shared defaults (common/definition), in the definition's own key order: saved presets and copied requests read the same.
  const parts = defaultDefinitionParts()
  return {
    project: info.project,
    report: info.report,
    dates: parts.dates,
    timezone: parts.timezone,
    metrics: metric ? [metric.name] : [],
    granularity: parts.granularity,
    categoryLimit: parts.categoryLimit,
    breakdown: parts.breakdown,
    lines: parts.lines,
    filters: [],
    filterLogic: '',
    metricConditions: [],
    metricConditionLogic: '',
    sort: [],
    comparison: parts.comparison,
    chart: parts.chart,
    audience: parts.audience,
  }
}

/**
 * The definition for another report: what still makes sense there (dates, timezone, comparison,
 * chart type) is kept, fields the new report does not have are dropped.
 */
export function adaptDefinition(previous: ReportDefinition | null, info: ReportInfoView): ReportDefinition {
  const fresh = defaultDefinition(info)
  if (previous === null) return fresh
  if (previous.project === info.project && previous.report === info.report) return previous
  const metrics = new Set(info.dataFields.map((field) => field.name))
  const keys = new Set(info.keyFields.map((field) => field.name))
  const kept = previous.metrics.filter((name) => metrics.has(name))
  return {
    ...fresh,
    dates: { ...previous.dates },
    timezone: info.supportsTimezone ? previous.timezone : { mode: 'report' },
    metrics: kept.length > 0 ? kept : fresh.metrics,
    breakdown: previous.breakdown.filter((name) => keys.has(name)),
    comparison: previous.comparison,
    chart: { ...fresh.chart, type: previous.chart.type },
  }
}

/** Keys a chart can break down or filter by (time keys belong to the time axis). */
export function plainKeys(info: ReportInfoView): KeyFieldInfo[] {
  return info.keyFields.filter((field) => !field.isTime)
}

export function fieldOf(info: ReportInfoView | null, name: string): DataFieldInfo | undefined {
  return info?.dataFields.find((field) => field.name === name)
}

export function keyOf(info: ReportInfoView | null, name: string): KeyFieldInfo | undefined {
  return info?.keyFields.find((field) => field.name === name)
}

/** Derived metrics carry a formula; they and percents are never added up. */
export function isDerived(field: DataFieldInfo): boolean {
  return field.formula !== null
}

/**
 * Why the chart cannot run yet, as one sentence shown beside the disabled Run button; null when
 * it can. Everything here is checked before anything is sent.
 */
export function chartBlocker(definition: ReportDefinition, dateError: string | null): string | null {
  if (definition.metrics.length === 0) return 'Pick a metric to chart.'
  if (dateError) return `The dates need fixing: ${dateError}`
  const lines = linesProblem(definition.breakdown, definition.lines)
  if (lines) return lines
  const empty = definition.filters.findIndex((filter) => filter.values.length === 0)
  if (empty >= 0) return `Filter ${empty + 1} has no values: add at least one, or remove the filter.`
  const logic = checkFilterLogic(definition.filterLogic, definition.filters.length)
  if (logic) return `The filter logic is not valid: ${logic}`
  const condition = definition.metricConditions.findIndex((entry) => entry.value.trim() === '' || !Number.isFinite(Number(entry.value)))
  if (condition >= 0) return `Metric condition ${condition + 1} needs a number.`
  const conditionLogic = checkFilterLogic(definition.metricConditionLogic, definition.metricConditions.length)
  if (conditionLogic) return `The condition logic is not valid: ${conditionLogic}`
  return null
}

/** Why the audience cannot run yet; null when it can. */
export function audienceBlocker(definition: ReportDefinition, dateError: string | null): string | null {
  if (dateError) return `The dates need fixing: ${dateError}`
  const empty = definition.filters.findIndex((filter) => filter.values.length === 0)
  if (empty >= 0) return `Filter ${empty + 1} has no values: add at least one, or remove the filter.`
  const logic = checkFilterLogic(definition.filterLogic, definition.filters.length)
  if (logic) return `The filter logic is not valid: ${logic}`
  return null
}

/**
 * The definition a value search is asked with: only what scopes the data (dates, timezone, the
 * other complete filters). The filter being edited is left out (its own values would hide the
 * suggestions), as are half-made filters and conditions, which the contract would refuse.
 */
export function valuesScope(definition: ReportDefinition, info: ReportInfoView | null, editingFilter: number | null): ReportDefinition {
  const filters = definition.filters.filter((filter, index) => index !== editingFilter && filter.values.length > 0)
  const conditions = definition.metricConditions.filter((condition) => condition.value.trim() !== '' && Number.isFinite(Number(condition.value)))
  const fallback = info?.dataFields.find((field) => !field.optional)?.name ?? info?.dataFields[0]?.name
  return plainDefinition({
    ...definition,
    metrics: definition.metrics.length > 0 ? definition.metrics : fallback ? [fallback] : [],
    lines: { mode: 'top', count: DEFAULT_TOP_LINES, by: null, includeTotal: true },
    filters,
    filterLogic: filters.length === definition.filters.length ? definition.filterLogic : '',
    metricConditions: conditions,
    metricConditionLogic: conditions.length === definition.metricConditions.length ? definition.metricConditionLogic : '',
  })
}

/** A plain copy for the bridge (Electron's IPC cannot clone Vue's proxies). */
export function plainDefinition(definition: ReportDefinition): ReportDefinition {
  return JSON.parse(JSON.stringify(definition)) as ReportDefinition
}
