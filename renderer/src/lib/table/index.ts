/**
 * The table engine: sort, quick search and per-column filters over rows of any record type,
 * described by column definitions. Used by the entity list; meant for any long table (a
 * report's series, an export preview).
 */
export type { ColumnKind, SortDirection, SortState, TableColumn, ViewState } from './types'
export { TableIndex } from './TableIndex'
export { filterPredicate, type Predicate } from './filters'
export { applyView, nextSort, withFilter } from './view'
export { useTable, type TableState } from './useTable'
export { useRowSelection, type RowSelection } from './useRowSelection'
export { rowWindow, useRowWindow, type RowWindow, type CreateHeightObserver } from './rowWindow'
