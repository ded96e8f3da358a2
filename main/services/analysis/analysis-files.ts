import path from 'node:path'
import { measureLabel, pivotTable, type WholePivot } from '../../../common/pivot/table'
import type { PivotLayout } from '../../../common/pivot/types'
import { AppError } from '../errors'
import { numberFormat, pivotBytes } from '../exports/pivot-files'
import { csvRow } from '../files/csv'
import type { SaveFileDialog } from '../files/dialogs'
import { chooseSaveTarget, writeChosenFile } from '../files/save-target'
import type { BoundedRows } from './engine'
import type { AnalysisColumn } from './table-load'

/**
 * An opened file's pivot and the SQL box's answer saved where main's save dialog says, as the
 * Reports pivot is (`exports:savePivot`): the same rectangle (common/pivot/table.ts: header rows,
 * row labels, totals, empty cells empty), csv through the app's one csv writer, xlsx with a
 * number format per value column (no decimals for whole-number columns) and the headers frozen.
 * The page sends only ids: the cells are read here from the engine's pivot, a window at a time.
 */

export type AnalysisFileFormat = 'csv' | 'xlsx'

const FILTERS = {
  csv: { name: 'CSV', extensions: ['csv'] as [string] },
  xlsx: { name: 'Excel workbook', extensions: ['xlsx'] as [string] },
}

const WHOLE_NUMBERS = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/i

/** A value column's header, as the grid names it: "sum of impressions". */
export function analysisValueName(layout: PivotLayout, index: number): string {
  const value = layout.values[index]
  return value ? `${value.aggregate} of ${value.field}` : ''
}

export function analysisPivotBytes(
  whole: WholePivot,
  layout: PivotLayout,
  fileColumns: readonly AnalysisColumn[],
  format: AnalysisFileFormat,
): string | Uint8Array {
  const table = pivotTable(whole, {
    rowFields: layout.rows,
    columnDepth: layout.columns.length,
    columnLabel: (column) => measureLabel(analysisValueName(layout, column.value), column),
  })
  return pivotBytes(table, format, (column) => {
    const value = layout.values[column.value]
    const type = fileColumns.find((fileColumn) => fileColumn.name === value?.field)?.type ?? ''
    const field = { name: value?.field ?? '', displayType: WHOLE_NUMBERS.test(type) ? ('int' as const) : ('float' as const), precision: 2 }
    return numberFormat(column, field, value?.aggregate ?? 'sum')
  })
}

/** The SQL box's answer as csv: its header and rows, numbers kept numbers. */
export function sqlAnswerCsv(answer: BoundedRows): string {
  return [answer.columns, ...answer.rows].map(csvRow).join('')
}

/** Asks where (null: the user cancelled), writes atomically, answers the file's name. The bytes are made first: what cannot be saved opens no dialog. */
export async function saveAnalysisFile(
  dialog: SaveFileDialog | undefined,
  name: string,
  format: AnalysisFileFormat,
  data: string | Uint8Array,
): Promise<{ fileName: string } | null> {
  if (dialog === undefined) throw new AppError('bad_input', 'This window cannot show a save dialog.')
  const target = await chooseSaveTarget(dialog, name, FILTERS[format])
  if (target === null) return null
  await writeChosenFile(target, data)
  return { fileName: path.basename(target) }
}
