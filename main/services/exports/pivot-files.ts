import type { PivotFile } from '@contract'
import { computePivot, layoutProblem } from '../../../common/pivot/model'
import { seriesRecords } from '../../../common/pivot/series-records'
import { measureLabel, pivotTable, tableLines, type PivotTable } from '../../../common/pivot/table'
import { TIME_FIELD, type PivotColumn } from '../../../common/pivot/types'
import { AppError } from '../errors'
import { csvRow } from '../files/csv'
import { writeXlsx } from './xlsx-writer'

/**
 * The Pivot tab's pivot as a file's bytes (`exports:savePivot`): computed here with the page's
 * own model from the layout and the result the page sent, so the file is the grid as shown:
 * the same rows in the same order, subtotals, Others and totals, change columns; in XLSX with
 * each value's number format and the header rows and row labels frozen.
 */
type Field = PivotFile['fields'][number]

/** Excel's number format for a column: the metric's precision, a sign on changes, `%` on percents. */
export function numberFormat(column: PivotColumn, field: Field | undefined, aggregate: string): string {
  if (column.measure === 'percent') return '+0.0"%";-0.0"%";0.0"%"'
  const digits = aggregate === 'count' ? 0 : field ? (field.displayType === 'int' && aggregate !== 'avg' ? 0 : Math.min(6, field.precision)) : 2
  const base = `#,##0${digits > 0 ? `.${'0'.repeat(digits)}` : ''}${field?.displayType === 'percent' && aggregate !== 'count' ? '"%"' : ''}`
  return column.measure === 'change' ? `+${base};-${base};${base}` : base
}

export function pivotFileTable(file: PivotFile): PivotTable {
  const source = seriesRecords(file.result, file.breakdown)
  const problem = layoutProblem(source, file.layout)
  if (problem !== null) throw new AppError('bad_input', `The pivot could not be saved: ${problem}`)
  const pivot = computePivot(source, file.layout)
  const valueName = (index: number): string => {
    const value = file.layout.values[index]
    return value ? (value.aggregate === 'sum' ? value.field : `${value.field} (${value.aggregate})`) : ''
  }
  const title = (field: string): string => (field === TIME_FIELD ? 'Time' : field)
  return pivotTable(pivot, {
    rowFields: file.layout.rows.map(title),
    columnDepth: file.layout.columns.length,
    columnLabel: (column) => measureLabel(valueName(column.value), column),
  })
}

/**
 * A pivot table as a file's bytes: csv through the app's csv writer, or one xlsx sheet with the
 * header rows and row labels frozen and `formatOf` giving each value column's number format.
 * The Reports pivot and Analysis's both save through it.
 */
export function pivotBytes(table: PivotTable, format: 'csv' | 'xlsx', formatOf: (column: PivotTable['columns'][number]) => string): string | Uint8Array {
  if (format === 'csv') return tableLines(table).map(csvRow).join('')
  const formats = [...new Array<undefined>(table.labelColumns).fill(undefined), ...table.columns.map(formatOf)]
  return writeXlsx({
    name: 'Pivot',
    rows: [...table.header, ...table.body.map((line) => [...line.labels, ...line.cells])],
    headerRows: table.header.length,
    frozenColumns: table.labelColumns,
    columnFormats: formats,
    columnWidths: formats.map((_format, index) => (index < table.labelColumns ? 24 : 14)),
  })
}

export function pivotFileBytes(file: PivotFile): string | Uint8Array {
  return pivotBytes(pivotFileTable(file), file.format, (column) => {
    const value = file.layout.values[column.value]
    return numberFormat(
      column,
      file.fields.find((field) => field.name === value?.field),
      value?.aggregate ?? 'sum',
    )
  })
}
