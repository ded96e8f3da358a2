import { EXPORT_CAPS, type ExportFormat, type ExportOptions, type ReportDefinition, type ReportInfoView, type ResolvedRange } from '@contract'
import { AppError } from '../errors'
import type { ReportRequest } from '../reporting/schemas'
import { timeGranularityOf } from '../../../common/granularity'
import { granularityName, type OrderTermBody } from '../reports/platform-body'
import { exportColumns, type ExportColumns } from './export-columns'
import { dataFilterFields, planScope, scopeFields, type ClockContext, type ReportScope } from '../reports/scope'

/**
 * An export's platform request, derived from a report definition with the export's own
 * choices on top (exports.ts in the contract says which choice falls back to what). Every
 * check that can be made before the save dialog opens is made here, named after the field.
 */
export interface ExportPlan {
  request: ReportRequest
  format: ExportFormat
  keys: string[]
  dataFields: string[]
  includeTotal: boolean
  range: ResolvedRange
  scope: ReportScope
  /** The header as the file shows it, and its date columns. */
  columns: ExportColumns
}

/** A choice of the export dialog that cannot be exported, named after its field (as the builder's own errors are). */
function invalidField(field: keyof ExportOptions, message: string): AppError {
  return new AppError('validation', message, { field, fields: { [field]: [message] } })
}

/**
 * The keys an export splits by when the dialog names none: a time series is exported by its
 * breakdown and its time key (a daily chart by publisher: one row per publisher and day, as the
 * chart draws it); a category chart by its breakdown, else its key.
 */
function defaultKeys(definition: ReportDefinition, info: ReportInfoView, days: number): string[] {
  const granularity = granularityName(definition, days)
  const isTime = info.keyFields.find((field) => field.name === granularity)?.isTime ?? timeGranularityOf(granularity) !== null
  if (!isTime) return definition.breakdown.length > 0 ? definition.breakdown : [granularity]
  return [...definition.breakdown.filter((key) => key !== granularity), granularity]
}

export function planExport(definition: ReportDefinition, info: ReportInfoView, options: ExportOptions, clock: ClockContext): ExportPlan {
  const scope = planScope({ ...definition, filterLogic: options.filterLogic ?? definition.filterLogic }, info, clock)
  const dataFields = options.dataFields ?? definition.metrics
  const keys = options.keys ?? defaultKeys(definition, info, scope.range.days)

  if (dataFields.length === 0) throw invalidField('dataFields', 'Pick at least one data field to export.')
  dataFields.forEach((name, index) => {
    if (!info.dataFields.some((field) => field.name === name))
      throw invalidField('dataFields', `"${name}" is not a data field of ${info.project}/${info.report}.`)
    if (dataFields.indexOf(name) !== index) throw invalidField('dataFields', `"${name}" is listed twice.`)
  })
  if (keys.length === 0) throw invalidField('keys', 'Pick at least one key to split the export by.')
  keys.forEach((name, index) => {
    if (!info.keyFields.some((field) => field.name === name)) throw invalidField('keys', `"${name}" is not a key field of ${info.project}/${info.report}.`)
    if (keys.indexOf(name) !== index) throw invalidField('keys', `"${name}" is listed twice.`)
  })

  const sort = (options.sort ?? definition.sort).map((rule): OrderTermBody => {
    if (!dataFields.includes(rule.field) && !keys.includes(rule.field)) {
      throw invalidField('sort', `An export sorts by one of its data fields or keys; "${rule.field}" is neither.`)
    }
    return { name: rule.field, direction: rule.direction, mapping: rule.byName ? 1 : 0 }
  })
  const includeTotal = options.includeTotal ?? false

  const request: ReportRequest = {
    ...scopeFields(scope),
    split_by: keys,
    data_fields: dataFields,
    ...dataFilterFields(scope),
    ...(sort.length > 0 ? { order_by: sort } : {}),
    include_mappings: (options.includeNames ?? true) ? 1 : 0,
    include_total: includeTotal ? 1 : 0,
    export_format: options.format,
  }
  const columns = exportColumns(info, keys, dataFields, options.apiColumnNames ?? false)
  return { request, format: options.format, keys, dataFields, includeTotal, range: scope.range, scope, columns }
}

/** The caps of a format, as the export dialog explains them before starting. */
export function capsOf(format: ExportFormat): { cap: number; othersRow: boolean; rules: string[] } {
  const text = EXPORT_CAPS.textRows.toLocaleString('en-US')
  const several = `Exports split by two or more keys are refused by the platform when they would have more than ${text} rows: narrow the dates or add filters.`
  if (format === 'xlsx') {
    const rows = EXPORT_CAPS.xlsxRows.toLocaleString('en-US')
    return { cap: EXPORT_CAPS.xlsxRows, othersRow: false, rules: [`An xlsx file holds at most ${rows} rows; rows past them are left out.`, several] }
  }
  return {
    cap: EXPORT_CAPS.textRows,
    othersRow: true,
    rules: [`A ${format} file holds at most ${text} rows; the platform sums every row past them into one final Others row.`, several],
  }
}
