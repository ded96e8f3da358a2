import type { SqlRows } from '@contract'
import { pivotTable, tableLines, type WholePivot } from '../../../../common/pivot/table'
import type { PivotColumn, PivotLayout } from '../../../../common/pivot/types'
import { escapeTsv } from '../../domain/reports/tsv'

/**
 * The Analysis page's text for the clipboard: the pivot as the Reports pivot copies it (the same
 * rectangle, common/pivot/table.ts: header rows, row labels, totals, raw numbers, empty cells
 * empty) and the SQL answer's rows, both as TSV with the series table's escaping.
 */

const tsv = (lines: readonly (readonly string[])[]): string => lines.map((line) => line.map(escapeTsv).join('\t')).join('\n') + '\n'

export function pivotTsv(whole: WholePivot, layout: PivotLayout, columnLabel: (column: PivotColumn) => string): string {
  return tsv(tableLines(pivotTable(whole, { rowFields: layout.rows, columnDepth: layout.columns.length, columnLabel })))
}

/** The SQL answer: its header, then its rows (numbers raw, no value empty). */
export function sqlTsv(answer: SqlRows): string {
  return tsv([answer.columns, ...answer.rows.map((row) => row.map((cell) => (cell === null ? '' : String(cell))))])
}
