import type { ComputedPivot } from './model'
import type { PivotColumn } from './types'

/**
 * A computed pivot as the rectangle a spreadsheet shows: the header rows (one per column field's
 * level, one for the values), then one line per pivot row: its row header's labels, then its
 * numbers (null: an empty cell, written empty, never 0). Copy as TSV, the CSV and the XLSX are
 * all written from this, so each is exactly what the grid shows, totals included.
 */
export interface PivotTable {
  /** Text only: the corner holds the row fields' names. */
  header: string[][]
  body: { labels: string[]; cells: (number | null)[] }[]
  /** How many columns on the left are row labels (frozen beside the numbers). */
  labelColumns: number
  /** The value (index into the layout's values) and measure of each number column, for number formats. */
  columns: readonly PivotColumn[]
}

export interface PivotTableNames {
  /** The row header's levels (at least one). */
  rowFields: readonly string[]
  /** Depth of the column axis (0: no column fields). */
  columnDepth: number
  columnLabel: (column: PivotColumn) => string
}

/** A whole pivot's headers and cells: a computed one, or one the page had back from its worker. */
export type WholePivot = Pick<ComputedPivot, 'rows' | 'columns' | 'cell'>

export function pivotTable(pivot: WholePivot, names: PivotTableNames): PivotTable {
  const labelColumns = Math.max(1, names.rowFields.length)
  const pathRows = Math.max(1, names.columnDepth)
  const header: string[][] = []
  for (let level = 0; level < pathRows; level += 1) {
    const corner = new Array<string>(labelColumns).fill('')
    header.push([...corner, ...pivot.columns.map((column) => column.header.path[level] ?? '')])
  }
  header.push([...Array.from({ length: labelColumns }, (_unused, index) => names.rowFields[index] ?? ''), ...pivot.columns.map(names.columnLabel)])
  const body = pivot.rows.map((row, rowIndex) => ({
    labels: Array.from({ length: labelColumns }, (_unused, level) => row.path[level] ?? ''),
    cells: pivot.columns.map((_column, columnIndex) => pivot.cell(rowIndex, columnIndex)),
  }))
  return { header, body, labelColumns, columns: pivot.columns }
}

/** The table as text cells: numbers raw (no separators), empty cells empty. */
export function tableLines(table: PivotTable): string[][] {
  return [...table.header, ...table.body.map((line) => [...line.labels, ...line.cells.map((cell) => (cell === null ? '' : String(cell)))])]
}

/** A leaf column's header text: the value's name, and what of it a change column shows. */
export function measureLabel(valueName: string, column: PivotColumn): string {
  if (column.measure === 'change') return `${valueName} change`
  if (column.measure === 'percent') return `${valueName} change %`
  return valueName
}
