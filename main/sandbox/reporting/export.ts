import { GroupSums, groupRecords, metricsOf } from './aggregate'
import type { ReportContext } from './context'
import { formatDay } from './dates'
import { badRequest } from './errors'
import { findDataField, presentValue } from './fields'
import type { DataField } from './fields'
import type { KeyAccessor } from './keys'
import { exportSchema, parseBody } from './request'
import { accessorOrFail, resolveScope } from './scope'
import { passesDataFilters, resolveDataFilters, resolveOrder, sortRows } from './table'
import type { RowSource, SortTerm } from './table'
import { checkSplitBy } from './time-series'

export type ExportFileFormat = 'csv' | 'tsv' | 'xlsx'
export type Cell = string | number | null

export interface ExportLimits {
  /** csv and tsv: rows written before one `Others` row summarises the rest. */
  textRows: number
  /** xlsx: rows written; the rest is cut (a sheet holds 1,048,576 rows). */
  xlsxRows: number
  /** Exports with two or more split_by keys above this many rows are rejected. */
  multiKeyRows: number
}

export const EXPORT_LIMITS: ExportLimits = { textRows: 1_000_000, xlsxRows: 1_048_570, multiKeyRows: 1_000_000 }

export interface ExportFile {
  format: ExportFileFormat
  filename: string
  columns: string[]
  /** Data rows first, then `Others` and `Total` when they apply; produced lazily. */
  rows: Iterable<Cell[]>
  /** Number of rows `rows` yields (without the header). */
  rowCount: number
  /** Rows that matched before any cap. */
  matchingRows: number
}

const FORMATS: readonly ExportFileFormat[] = ['csv', 'tsv', 'xlsx']

export function planExport(context: ReportContext, raw: unknown, limits: ExportLimits = EXPORT_LIMITS): ExportFile {
  const body = parseBody(exportSchema, raw)
  const format = FORMATS.find((candidate) => candidate === body.export_format)
  if (!format) throw badRequest(`Invalid parameter export_format: ${body.export_format} is not supported; use xlsx, csv or tsv`)
  const splitBy = typeof body.split_by === 'string' ? [body.split_by] : body.split_by
  checkSplitBy(splitBy)
  const dataFields = (body.data_fields ?? []).map((name, index) => {
    const field = findDataField(name, context.user)
    if (!field) throw badRequest(`Invalid parameter data_fields[${index}]: unknown data field '${name}'`)
    return field
  })
  const scope = resolveScope(context, body)
  const range = scope.range
  const splitParameter = (index: number): string => (typeof body.split_by === 'string' ? 'split_by' : `split_by[${index}]`)
  const keys = splitBy.map((name, index) => accessorOrFail(context, name, range, splitParameter(index)))
  const dataFilters = resolveDataFilters(context.user, body.data_filters, body.data_filter_template)
  const orderTerms = resolveOrder(context.user, body.order_by, keys)
  const includeMappings = (body.include_mappings ?? (keys.length === 1 ? 1 : 0)) === 1
  const needed: DataField[] = [...dataFields, ...dataFilters.items.map((item) => item.field)]
  for (const term of orderTerms) if (term.kind === 'field') needed.push(term.field)
  // Only the group sums and key codes outlive this call: the record lists can be freed before streaming.
  const { sums, keyCodes, groupCount } = aggregateGroups(context, scope.records, keys, needed)
  const filename = `demo-supply-${formatDay(scope.startDay)}-${formatDay(scope.endDay)}.${format}`

  let keptCount = 0
  const kept = new Int32Array(groupCount)
  for (let group = 0; group < groupCount; group++) {
    if (passesDataFilters(dataFilters, (field) => sums.value(field, group))) kept[keptCount++] = group
  }
  if (keys.length >= 2 && keptCount > limits.multiKeyRows) {
    throw badRequest(
      `Invalid parameter split_by: the export would have ${keptCount} rows; exports with two or more split_by fields are limited to ${limits.multiKeyRows} rows. Narrow the dates or add filters.`,
    )
  }

  const source: RowSource = {
    count: groupCount,
    keys,
    value: (field, group) => sums.value(field, group),
    code: (keyIndex, group) => (keyCodes[keyIndex] as Int32Array)[group] as number,
  }
  // Default order: biggest first by the first data field; without data fields, by the keys.
  const firstField = dataFields[0]
  const defaultTerms: SortTerm[] = firstField ? [{ kind: 'field', field: firstField, descending: true }] : []
  const ordered = sortRows(source, kept.subarray(0, keptCount), orderTerms.length > 0 ? orderTerms : defaultTerms)

  const cap = format === 'xlsx' ? limits.xlsxRows : limits.textRows
  const written = Math.min(cap, ordered.length)
  const withOthers = format !== 'xlsx' && ordered.length > cap
  const withTotal = body.include_total === 1

  const columns: string[] = []
  for (const key of keys) {
    columns.push(key.name)
    if (includeMappings && key.hasMapping) columns.push(`${key.name} Name`)
  }
  for (const field of dataFields) columns.push(field.info.name)

  const labelledRow = (label: string, groups: ArrayLike<number>, from: number, to: number): Cell[] => {
    const cells: Cell[] = []
    keys.forEach((key, index) => {
      cells.push(index === 0 ? label : null)
      if (includeMappings && key.hasMapping) cells.push(null)
    })
    for (const field of dataFields) cells.push(presentValue(field, sums.combined(field, rangeOf(groups, from, to))))
    return cells
  }

  function* rows(): Generator<Cell[]> {
    for (let position = 0; position < written; position++) {
      const group = ordered[position] as number
      yield groupRow(keys, includeMappings, dataFields, sums, keyCodes, group)
    }
    if (withOthers) yield labelledRow('Others', ordered, written, ordered.length)
    if (withTotal) yield labelledRow('Total', ordered, 0, ordered.length)
  }

  return {
    format,
    filename,
    columns,
    rows: { [Symbol.iterator]: rows },
    rowCount: written + (withOthers ? 1 : 0) + (withTotal ? 1 : 0),
    matchingRows: ordered.length,
  }
}

function aggregateGroups(
  context: ReportContext,
  records: Int32Array,
  keys: readonly KeyAccessor[],
  fields: readonly DataField[],
): { sums: GroupSums; keyCodes: Int32Array[]; groupCount: number } {
  const grouping = groupRecords(records, keys)
  return { sums: new GroupSums(context.facts, records, grouping, metricsOf(fields)), keyCodes: grouping.keyCodes, groupCount: grouping.count }
}

function* rangeOf(values: ArrayLike<number>, from: number, to: number): Generator<number> {
  for (let index = from; index < to; index++) yield values[index] as number
}

function groupRow(
  keys: readonly KeyAccessor[],
  includeMappings: boolean,
  dataFields: readonly DataField[],
  sums: GroupSums,
  keyCodes: readonly Int32Array[],
  group: number,
): Cell[] {
  const cells: Cell[] = []
  keys.forEach((key, index) => {
    const code = (keyCodes[index] as Int32Array)[group] as number
    cells.push(key.text(code))
    if (includeMappings && key.hasMapping) cells.push(key.mapping(code))
  })
  for (const field of dataFields) cells.push(presentValue(field, sums.value(field, group)))
  return cells
}
