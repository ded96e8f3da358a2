import { Axis, labelCollator, OTHERS_LABEL, pathOf, TOTAL_LABEL, type AxisNode } from './axis'
import { CellStore, changeBetween } from './cells'
import { PIVOT_WINDOW_LIMITS, type PivotColumn, type PivotHeader, type PivotLayout, type PivotWindow, type PivotWindowRequest } from './types'

/**
 * The pivot of a table of records, computed once per layout: the row and column trees with
 * their subtotals and totals, the rows sorted and cut to top N with "Others", then any window of
 * it on request. One pass adds every record to each cell on its chains (leaf up to the total on
 * both axes), so the cost grows with records × depth, and a window reads only its own cells.
 */

export interface PivotRecord {
  /** One label per field of the source, in `fields` order. */
  keys: readonly string[]
  /** One per value field of the source; null: no value (an empty cell, which is not zero). */
  values: readonly (number | null)[]
  /** The comparison period's values, when the source has a comparison. */
  compare: readonly (number | null)[] | null
}

export interface PivotSource {
  /** The fields records are keyed by (breakdown keys, `@time`, file columns). */
  fields: readonly string[]
  /** The fields records carry numbers for (metrics). */
  values: readonly string[]
  records: readonly PivotRecord[]
  comparison: boolean
}

export interface ComputedPivot {
  rowCount: number
  columnCount: number
  rows: readonly PivotHeader[]
  columns: readonly PivotColumn[]
  cell(row: number, column: number): number | null
  window(request: PivotWindowRequest): PivotWindow
  /** The smallest and largest item cell of a value (no totals), for a colour scale; null when it has none. */
  range(value: number): { min: number; max: number } | null
}

/** What is wrong with a layout for this source, as a sentence; null when it can be computed. */
export function layoutProblem(source: Pick<PivotSource, 'fields' | 'values' | 'comparison'>, layout: PivotLayout): string | null {
  const unknown = [...layout.rows, ...layout.columns].find((field) => !source.fields.includes(field))
  if (unknown !== undefined) return `The pivot groups by "${unknown}", which this result does not have: pick the rows and columns again.`
  const repeated = [...layout.rows, ...layout.columns].find((field, index, all) => all.indexOf(field) !== index)
  if (repeated !== undefined) return `"${repeated}" is both a row and a column of the pivot: keep it on one side.`
  if (layout.values.length === 0) return 'Pick at least one value to show in the cells.'
  const missing = layout.values.find((value) => !source.values.includes(value.field))
  if (missing !== undefined) return `The pivot shows "${missing.field}", which this result does not have: pick its values again.`
  if (layout.sort.by === 'change' && !source.comparison) return 'Sorting by change needs a comparison period: choose one in the builder and run again.'
  return null
}

type Measure = PivotColumn['measure']
const MEASURES_WITH_CHANGE: readonly Measure[] = ['value', 'change', 'percent']

export function computePivot(source: PivotSource, layout: PivotLayout): ComputedPivot {
  const problem = layoutProblem(source, layout)
  if (problem !== null) throw new Error(problem)
  const rowAt = layout.rows.map((field) => source.fields.indexOf(field))
  const columnAt = layout.columns.map((field) => source.fields.indexOf(field))
  const valueAt = layout.values.map((value) => source.values.indexOf(value.field))
  const rowAxis = new Axis(layout.rows.length)
  const columnAxis = new Axis(layout.columns.length)

  // Pass 1: the trees. Pass 2 needs the column axis' size for the cell keys.
  const rowLeaves = new Int32Array(source.records.length)
  const columnLeaves = new Int32Array(source.records.length)
  source.records.forEach((record, index) => {
    rowLeaves[index] = rowAxis.leaf(rowAt.map((at) => record.keys[at] ?? '')).id
    columnLeaves[index] = columnAxis.leaf(columnAt.map((at) => record.keys[at] ?? '')).id
  })
  // Room for the Others row (rows + 1), which is made after the sort.
  const cells = new CellStore(layout.values.length, rowAxis.nodes.length + 1, columnAxis.nodes.length)
  source.records.forEach((record, index) => {
    const numbers = valueAt.map((at) => record.values[at] ?? null)
    const previous = valueAt.map((at) => record.compare?.[at] ?? null)
    // A record without a number makes no cell: its cells stay empty, not zero.
    if (numbers.every((number) => number === null) && previous.every((number) => number === null)) return
    const rowChain = (rowAxis.nodes[rowLeaves[index] as number] as AxisNode).chain
    const columnChain = (columnAxis.nodes[columnLeaves[index] as number] as AxisNode).chain
    for (const rowNode of rowChain) {
      for (const columnNode of columnChain) {
        // One lookup per cell, every value and both periods written through it.
        const slot = cells.slot(rowNode, columnNode, true)
        for (let value = 0; value < numbers.length; value += 1) {
          cells.addAt(slot, value, 0, numbers[value] ?? null)
          cells.addAt(slot, value, 1, previous[value] ?? null)
        }
      }
    }
  })

  const read = (rowNode: number, columnNode: number, value: number, measure: Measure): number | null => {
    const aggregate = layout.values[value]?.aggregate ?? 'sum'
    const current = cells.read(rowNode, columnNode, value, 0, aggregate)
    if (measure === 'value') return current
    return changeBetween(current, cells.read(rowNode, columnNode, value, 1, aggregate), measure)
  }

  sortRows(rowAxis, columnAxis, layout, read)
  if (layout.top !== null && rowAxis.root.children.length > layout.top) {
    const kept = rankForTop(rowAxis.root.children, columnAxis, layout, read).slice(0, layout.top)
    const keptIds = new Set(kept.map((node) => node.id))
    const left = rowAxis.root.children.filter((node) => !keptIds.has(node.id))
    rowAxis.root.children = rowAxis.root.children.filter((node) => keptIds.has(node.id))
    const others = rowAxis.add(rowAxis.root, OTHERS_LABEL)
    others.others = true
    for (const node of left) for (const columnNode of columnAxis.nodes) cells.merge(node.id, others.id, columnNode.id)
  }
  for (const node of columnAxis.nodes) node.children.sort((left, right) => labelCollator().compare(left.label, right.label))

  const rowHeaders: PivotHeader[] = []
  const rowNodes: number[] = []
  flatten(rowAxis, layout.subtotals, (node, header) => {
    rowHeaders.push(header)
    rowNodes.push(node.id)
  })
  const columnHeaders: PivotColumn[] = []
  const columnNodes: number[] = []
  const measures = layout.showChange && source.comparison ? MEASURES_WITH_CHANGE : (['value'] as const)
  flatten(columnAxis, layout.subtotals, (node, header) => {
    layout.values.forEach((_value, value) => {
      for (const measure of measures) {
        columnHeaders.push({ header, value, measure })
        columnNodes.push(node.id)
      }
    })
  })

  const cell = (row: number, column: number): number | null => {
    const rowNode = rowNodes[row]
    const header = columnHeaders[column]
    if (rowNode === undefined || header === undefined) return null
    return read(rowNode, columnNodes[column] as number, header.value, header.measure)
  }
  const ranges = new Map<number, { min: number; max: number } | null>()
  return {
    rowCount: rowHeaders.length,
    columnCount: columnHeaders.length,
    rows: rowHeaders,
    columns: columnHeaders,
    cell,
    window(request) {
      const rowStart = clamp(request.rowStart, 0, Math.max(0, rowHeaders.length - 1))
      const columnStart = clamp(request.columnStart, 0, Math.max(0, columnHeaders.length - 1))
      const rowEnd = Math.min(rowHeaders.length, rowStart + clamp(request.rowCount, 0, PIVOT_WINDOW_LIMITS.rows))
      const columnEnd = Math.min(columnHeaders.length, columnStart + clamp(request.columnCount, 0, PIVOT_WINDOW_LIMITS.columns))
      const rows = rowHeaders.slice(rowStart, rowEnd)
      const columns = columnHeaders.slice(columnStart, columnEnd)
      const windowCells = rows.map((_row, rowOffset) => columns.map((_column, columnOffset) => cell(rowStart + rowOffset, columnStart + columnOffset)))
      return { rowCount: rowHeaders.length, columnCount: columnHeaders.length, rowStart, columnStart, rows, columns, cells: windowCells }
    },
    range(value) {
      if (!ranges.has(value)) {
        // Without fields on an axis its total is the only line, and it is what the scale spans.
        const rowKinds = layout.rows.length === 0 ? ['total'] : ['item']
        const columnKinds = layout.columns.length === 0 ? ['total'] : ['item']
        const rows = { headers: rowHeaders, nodes: rowNodes, kinds: rowKinds }
        ranges.set(value, itemRange(rows, { headers: columnHeaders, nodes: columnNodes, kinds: columnKinds }, value, read))
      }
      return ranges.get(value) ?? null
    },
  }
}

const clamp = (value: number, low: number, high: number): number => Math.max(low, Math.min(high, Math.floor(Number.isFinite(value) ? value : 0)))

type Read = (rowNode: number, columnNode: number, value: number, measure: Measure) => number | null

/** The number a row is sorted (and ranked for top N) by, in the sort's column. */
function sortKey(columnAxis: Axis, layout: PivotLayout, read: Read): ((node: AxisNode) => number | null) | null {
  const sort = layout.sort
  if (sort.by === 'label') return null
  const column = columnAxis.find(sort.column) ?? columnAxis.root
  const measure: Measure = sort.by === 'value' ? 'value' : sort.measure === 'absolute' ? 'change' : 'percent'
  return (node) => read(node.id, column.id, sort.value, measure)
}

/** Every level's rows in the sort's order; rows without a number go last whichever the direction. */
function sortRows(rowAxis: Axis, columnAxis: Axis, layout: PivotLayout, read: Read): void {
  const direction = layout.sort.direction === 'asc' ? 1 : -1
  const key = sortKey(columnAxis, layout, read)
  const compare = (left: AxisNode, right: AxisNode): number => {
    if (key === null) return direction * labelCollator().compare(left.label, right.label)
    const a = key(left)
    const b = key(right)
    if (a === null || b === null) return a === b ? labelCollator().compare(left.label, right.label) : a === null ? 1 : -1
    return a === b ? labelCollator().compare(left.label, right.label) : direction * (a - b)
  }
  for (const node of rowAxis.nodes) if (node.children.length > 1) node.children.sort(compare)
}

/** Top N keeps the largest rows by the sort's number; sorted by label, by the first value's total. */
function rankForTop(nodes: readonly AxisNode[], columnAxis: Axis, layout: PivotLayout, read: Read): AxisNode[] {
  const key = sortKey(columnAxis, layout, read) ?? ((node: AxisNode) => read(node.id, columnAxis.root.id, 0, 'value'))
  const largest = layout.sort.by === 'label' || layout.sort.direction === 'desc'
  return [...nodes].sort((left, right) => {
    const a = key(left)
    const b = key(right)
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1
    return largest ? b - a : a - b
  })
}

/** The headers of an axis in drawing order: items, a subtotal after each parent's children, the total last. */
function flatten(axis: Axis, subtotals: boolean, emit: (node: AxisNode, header: PivotHeader) => void): void {
  const visit = (node: AxisNode): void => {
    if (node.others) return emit(node, { path: [OTHERS_LABEL], kind: 'others' })
    if (node.depth === axis.depth) return emit(node, { path: pathOf(node, axis.nodes), kind: 'item' })
    for (const child of node.children) visit(child)
    if (subtotals && node.depth > 0 && axis.depth > 1) emit(node, { path: [...pathOf(node, axis.nodes), TOTAL_LABEL], kind: 'subtotal' })
  }
  if (axis.depth > 0) for (const child of axis.root.children) visit(child)
  emit(axis.root, { path: [TOTAL_LABEL], kind: 'total' })
}

interface RangeAxis<Header> {
  headers: readonly Header[]
  nodes: readonly number[]
  kinds: readonly string[]
}

function itemRange(rows: RangeAxis<PivotHeader>, columns: RangeAxis<PivotColumn>, value: number, read: Read): { min: number; max: number } | null {
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  rows.headers.forEach((row, rowIndex) => {
    if (!rows.kinds.includes(row.kind)) return
    columns.headers.forEach((column, columnIndex) => {
      if (column.value !== value || column.measure !== 'value' || !columns.kinds.includes(column.header.kind)) return
      const number = read(rows.nodes[rowIndex] as number, columns.nodes[columnIndex] as number, value, 'value')
      if (number === null) return
      if (number < min) min = number
      if (number > max) max = number
    })
  })
  return min <= max ? { min, max } : null
}
