import type { WholePivot } from './table'
import { PIVOT_WINDOW_LIMITS, type PivotColumn, type PivotHeader, type PivotWindow, type PivotWindowRequest } from './types'

/**
 * A pivot read whole from a window source (main's engine pivot of an opened file), one window of
 * at most PIVOT_WINDOW_LIMITS at a time: what Copy as TSV (the page) and Save (main) write.
 */
export async function readWholePivot(
  size: { rowCount: number; columnCount: number },
  window: (request: PivotWindowRequest) => Promise<PivotWindow>,
): Promise<WholePivot> {
  const rows: PivotHeader[] = []
  const columns: PivotColumn[] = []
  const cells: (number | null)[][] = Array.from({ length: size.rowCount }, () => [])
  for (let columnStart = 0; columnStart < Math.max(1, size.columnCount); columnStart += PIVOT_WINDOW_LIMITS.columns)
    for (let rowStart = 0; rowStart < Math.max(1, size.rowCount); rowStart += PIVOT_WINDOW_LIMITS.rows) {
      const part = await window({ rowStart, rowCount: PIVOT_WINDOW_LIMITS.rows, columnStart, columnCount: PIVOT_WINDOW_LIMITS.columns })
      if (columnStart === 0) rows.push(...part.rows)
      if (rowStart === 0) columns.push(...part.columns)
      part.cells.forEach((line, index) => cells[rowStart + index]?.push(...line))
    }
  return { rows, columns, cell: (row, column) => cells[row]?.[column] ?? null }
}
