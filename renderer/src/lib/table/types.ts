/**
 * What the table engine needs to know about a table: its columns as functions over a row, and
 * what the user asked for (search, per-column filters, sort). Rows may be any record type.
 */

export type ColumnKind = 'text' | 'number' | 'boolean'

export interface TableColumn<Row> {
  key: string
  title: string
  kind: ColumnKind
  /** What the cell shows (a reference's name, "yes"/"no", a list joined). Searched and filtered. */
  text: (row: Row) => string
  /** The sort key; defaults to the lowercase text. Numbers sort numerically, nulls last. */
  sortValue?: (row: Row) => number | string | null
}

export type SortDirection = 'asc' | 'desc'
export interface SortState {
  key: string
  direction: SortDirection
}

export interface ViewState {
  query: string
  /** Column key → filter text. Numbers accept `>10`, `<=5`, `=3`, `10..20` or plain text; booleans `yes`/`no`. */
  filters: Record<string, string>
  sort: SortState | null
}
