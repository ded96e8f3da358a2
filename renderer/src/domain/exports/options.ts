import type { ExportFormat, ExportOptions, ReportDefinition, SortRule } from '@contract'
import { fullGranularity, timeGranularityOf } from '../../../../common/granularity'
import { REPORT_LIMITS } from '../../../../common/limits'
import { checkFilterLogic } from '../reports/filterLogic'

/** The platform splits an export by at most this many keys (the contract's own bound). */
export const MAX_EXPORT_KEYS = REPORT_LIMITS.exportKeys

/** What the Export… dialog edits; every choice is sent, so the file is what the dialog shows. */
export interface ExportForm {
  format: ExportFormat
  dataFields: string[]
  /**
   * null: the definition's own keys as main resolves them (a time series: its breakdown and its time key, `auto`
   * chosen from the dates). Main decides that; its estimate answers the keys and the dialog
   * fills them in here, so the page never repeats main's rule.
   */
  keys: string[] | null
  includeNames: boolean
  includeTotal: boolean
  /** The header in the platform's names (`granularity_day`) rather than the screens' ("Day"). */
  apiColumnNames: boolean
  sort: SortRule[]
  filterLogic: string
}

export type ExportFormField = 'dataFields' | 'keys' | 'sort' | 'filterLogic'
export type ExportFormProblems = Partial<Record<ExportFormField, string>>

/** A time series (`auto`, `day`, `granularity_day`…): its export keys hold its time key, which only main resolves. */
function isTimeSeries(definition: ReportDefinition): boolean {
  return definition.granularity === 'auto' || timeGranularityOf(fullGranularity(definition.granularity)) !== null
}

/**
 * A category chart's keys from its breakdown; otherwise null, main's choice: a time series is
 * exported by its breakdown and its time key (a daily chart gets its date column), a category
 * chart without a breakdown by its key.
 */
export function defaultKeys(definition: ReportDefinition): string[] | null {
  return definition.breakdown.length > 0 && !isTimeSeries(definition) ? definition.breakdown.slice(0, MAX_EXPORT_KEYS) : null
}

/** The dialog's starting point: the definition's metrics, keys, sort (what still applies) and filter logic; names on, no total, the screens' column names. */
export function defaultForm(definition: ReportDefinition, format: ExportFormat = 'csv'): ExportForm {
  const dataFields = [...definition.metrics]
  const keys = defaultKeys(definition)
  return {
    format,
    dataFields,
    keys,
    includeNames: true,
    includeTotal: false,
    apiColumnNames: false,
    // While main chooses the keys they hold the breakdown at least.
    sort: sortWithin(definition.sort, dataFields, keys ?? definition.breakdown),
    filterLogic: definition.filterLogic,
  }
}

/** Sort rules that still name a chosen field or key; an export cannot sort by a column it leaves out. */
export function sortWithin(sort: SortRule[], dataFields: string[], keys: string[]): SortRule[] {
  return sort.filter((rule) => dataFields.includes(rule.field) || keys.includes(rule.field)).map((rule) => ({ ...rule }))
}

/** What is wrong with the dialog's choices, by field, checked as they are typed (the builder's own wording for filter logic). */
export function formProblems(form: ExportForm, filterCount: number): ExportFormProblems {
  const problems: ExportFormProblems = {}
  if (form.dataFields.length === 0) problems.dataFields = 'Pick at least one data field to export.'
  const keys = form.keys ?? []
  if (form.keys !== null && keys.length === 0) problems.keys = 'Pick at least one key to split the export by.'
  else if (keys.length > MAX_EXPORT_KEYS) problems.keys = `An export is split by at most ${MAX_EXPORT_KEYS} keys; remove ${keys.length - MAX_EXPORT_KEYS}.`
  // While main chooses the keys (null) it checks the sort against them itself.
  const stray = form.keys === null ? undefined : form.sort.find((rule) => !form.dataFields.includes(rule.field) && !keys.includes(rule.field))
  if (stray) problems.sort = `An export sorts by one of its data fields or keys; "${stray.field}" is neither.`
  const logic = checkFilterLogic(form.filterLogic, filterCount)
  if (logic) problems.filterLogic = logic
  return problems
}

/** The form as the contract's options: plain arrays (the bridge cannot clone Vue's proxies); no keys while main chooses them. */
export function toOptions(form: ExportForm): ExportOptions {
  return {
    format: form.format,
    dataFields: [...form.dataFields],
    ...(form.keys !== null ? { keys: [...form.keys] } : {}),
    includeNames: form.includeNames,
    includeTotal: form.includeTotal,
    apiColumnNames: form.apiColumnNames,
    sort: form.sort.map((rule) => ({ field: rule.field, direction: rule.direction, byName: rule.byName })),
    filterLogic: form.filterLogic,
  }
}
