/**
 * A pivot, as every runtime sees it: the layout a user builds (rows, columns, values, sort, top
 * N), and the window of a computed pivot that is drawn. A report result is pivoted in the page
 * (common/pivot/model.ts); an opened export is pivoted by the analytical engine in main, which
 * answers the same windows, so one grid draws both and no whole table ever crosses the bridge.
 */

export const PIVOT_AGGREGATES = ['sum', 'avg', 'min', 'max', 'count'] as const
export type PivotAggregate = (typeof PIVOT_AGGREGATES)[number]

export interface PivotValue {
  /** A metric of the report, or a column of an opened file. */
  field: string
  aggregate: PivotAggregate
}

/** What a row (or a column) of the pivot is sorted by. */
export type PivotSort =
  | { by: 'label'; direction: 'asc' | 'desc' }
  /** A value of the pivot: `value` indexes `values`; `column` is a leaf column's path, or null for the row total. */
  | { by: 'value'; value: number; column: string[] | null; direction: 'asc' | 'desc' }
  /** The change against the comparison period (report results with a comparison only). */
  | { by: 'change'; value: number; column: string[] | null; measure: 'absolute' | 'percent'; direction: 'asc' | 'desc' }

export interface PivotLayout {
  /** Fields down the side, outermost first: breakdown keys, the time bucket (`@time`), file columns. */
  rows: string[]
  /** Fields across the top, outermost first. */
  columns: string[]
  values: PivotValue[]
  sort: PivotSort
  /** Keep the N largest rows of the outermost level by the sort's value; the rest become one "Others" row. null: all. */
  top: number | null
  subtotals: boolean
  /** Show absolute and % change columns beside each value (report results with a comparison only). */
  showChange: boolean
}

/** The field name of a report result's time bucket in a layout. */
export const TIME_FIELD = '@time'

export type PivotHeaderKind = 'item' | 'subtotal' | 'total' | 'others'

export interface PivotHeader {
  /** The labels from the outermost level down to this one ("Others" and "Total" included). */
  path: string[]
  kind: PivotHeaderKind
}

/** A leaf column of the grid: a column header path, one value, and what it shows of that value. */
export interface PivotColumn {
  header: PivotHeader
  value: number
  measure: 'value' | 'change' | 'percent'
}

/** Which part of a computed pivot to draw: a window of rows and columns, never the whole table. */
export interface PivotWindowRequest {
  rowStart: number
  rowCount: number
  columnStart: number
  columnCount: number
}

export interface PivotWindow {
  /** The whole pivot's size, for the scrollbars. */
  rowCount: number
  columnCount: number
  rowStart: number
  columnStart: number
  /** One per row of the window, then one per column of the window. */
  rows: PivotHeader[]
  columns: PivotColumn[]
  /** cells[row][column] of the window; null is an empty cell (no data), which is not zero. */
  cells: (number | null)[][]
}

/** The bounds of one window crossing the bridge. */
export const PIVOT_WINDOW_LIMITS = { rows: 500, columns: 200 } as const
