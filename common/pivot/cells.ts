import type { PivotAggregate } from './types'

/**
 * The running aggregates of a pivot's cells, kept as sums, counts, minima and maxima (not final
 * values) so that cells merge: an "Others" row is the merge of the rows it stands for, and an
 * average stays an average of records, not of averages. One flat Float64Array, grown as cells
 * appear: 100,000 cells with their subtotals are a few hundred thousand numbers, not objects.
 */

/** sum, count, min, max for the base period, then for the comparison period. */
const STATS = 4
const PERIODS = 2

/** Up to this many (row node × column node) pairs, cells are found through a dense index (16 MB at most), past it through a Map. */
const DENSE_INDEX_LIMIT = 4_000_000

export class CellStore {
  private data: Float64Array
  private readonly sparse = new Map<number, number>()
  private readonly dense: Int32Array | null
  private used = 0
  private readonly width: number

  /** `values`: how many values each cell holds; `rowNodes` and `columnNodes`: the axes' node counts (rows + 1 for an Others row). */
  constructor(
    private readonly values: number,
    rowNodes: number,
    private readonly columnNodes: number,
  ) {
    this.width = values * PERIODS * STATS
    this.data = new Float64Array(this.width * 1024)
    this.dense = rowNodes * columnNodes <= DENSE_INDEX_LIMIT ? new Int32Array(rowNodes * columnNodes).fill(-1) : null
  }

  /** The cell's slot; with `create`, made on first use, else -1 when it has none. */
  slot(rowNode: number, columnNode: number, create: boolean): number {
    const key = rowNode * this.columnNodes + columnNode
    const found = this.dense ? (this.dense[key] as number) : (this.sparse.get(key) ?? -1)
    if (found >= 0 || !create) return found
    if ((this.used + 1) * this.width > this.data.length) {
      const grown = new Float64Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    const slot = this.used++
    const base = slot * this.width
    for (let index = 0; index < this.values * PERIODS; index += 1) {
      const at = base + index * STATS
      this.data[at + 2] = Number.POSITIVE_INFINITY
      this.data[at + 3] = Number.NEGATIVE_INFINITY
    }
    if (this.dense) this.dense[key] = slot
    else this.sparse.set(key, slot)
    return slot
  }

  /** Adds a number to a slot's value and period (null adds nothing: an empty cell stays empty, which is not zero). */
  addAt(slot: number, value: number, period: 0 | 1, number: number | null): void {
    if (number === null || !Number.isFinite(number)) return
    const at = slot * this.width + (value * PERIODS + period) * STATS
    const data = this.data
    data[at] = (data[at] as number) + number
    data[at + 1] = (data[at + 1] as number) + 1
    if (number < (data[at + 2] as number)) data[at + 2] = number
    if (number > (data[at + 3] as number)) data[at + 3] = number
  }

  /** Adds one record's value to a cell. */
  add(rowNode: number, columnNode: number, value: number, period: 0 | 1, number: number | null): void {
    if (number === null || !Number.isFinite(number)) return
    this.addAt(this.slot(rowNode, columnNode, true), value, period, number)
  }

  /** Merges one cell into another (an "Others" row from the rows it stands for). */
  merge(fromRow: number, toRow: number, columnNode: number): void {
    const from = this.slot(fromRow, columnNode, false)
    if (from < 0) return
    const to = this.slot(toRow, columnNode, true)
    const data = this.data
    const source = from * this.width
    const target = to * this.width
    for (let index = 0; index < this.values * PERIODS; index += 1) {
      const left = source + index * STATS
      const right = target + index * STATS
      data[right] = (data[right] as number) + (data[left] as number)
      data[right + 1] = (data[right + 1] as number) + (data[left + 1] as number)
      data[right + 2] = Math.min(data[right + 2] as number, data[left + 2] as number)
      data[right + 3] = Math.max(data[right + 3] as number, data[left + 3] as number)
    }
  }

  /** The aggregate of a cell; null when no record had a value there. */
  read(rowNode: number, columnNode: number, value: number, period: 0 | 1, aggregate: PivotAggregate): number | null {
    const slot = this.slot(rowNode, columnNode, false)
    if (slot < 0) return null
    const at = slot * this.width + (value * PERIODS + period) * STATS
    const count = this.data[at + 1] as number
    if (count === 0) return null
    switch (aggregate) {
      case 'sum':
        return this.data[at] as number
      case 'avg':
        return (this.data[at] as number) / count
      case 'min':
        return this.data[at + 2] as number
      case 'max':
        return this.data[at + 3] as number
      case 'count':
        return count
    }
  }
}

/** A value against its comparison: the difference, or the difference in percent of the comparison (null from zero). */
export function changeBetween(value: number | null, previous: number | null, measure: 'change' | 'percent'): number | null {
  if (value === null || previous === null) return null
  if (measure === 'change') return value - previous
  return previous === 0 ? null : ((value - previous) / Math.abs(previous)) * 100
}
