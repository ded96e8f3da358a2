import { afterEach, describe, expect, it, vi } from 'vitest'
import { nextTick, shallowRef } from 'vue'
import { TableIndex, applyView, useTable, type TableColumn } from '../../../../../renderer/src/lib/table'

interface Row {
  id: number
  name: string
}

const names = ['golden 9', 'golden 98', 'golden 7', 'silver 98', 'gold 4217', 'bronze 42', 'golden 421']
const rows: Row[] = names.map((name, position) => ({ id: position + 1, name }))
const columns: TableColumn<Row>[] = [
  { key: 'id', title: 'ID', kind: 'number', text: (row) => String(row.id), sortValue: (row) => row.id },
  { key: 'name', title: 'Name', kind: 'text', text: (row) => row.name },
]

/**
 * Rows none of these searches matches: a query grown from a kept one tests that one's rows one by
 * one only when they are few among all the rows (testing many costs more than searching them all).
 */
const others: Row[] = Array.from({ length: 60 }, (_, position) => ({ id: 1_000 + position, name: 'tin' }))
const listed = [...rows, ...others]

/**
 * An index whose search text counts how many rows each search tests: one by one, or a range of
 * them at once. Chunks of 3 rows, so that searches cross the edges of the chunks.
 */
function countingIndex(data: readonly Row[] = rows): { index: TableIndex<Row>; tested: () => number } {
  const index = new TableIndex<Row>(3)
  index.update(data, columns)
  const text = index.searchText()
  let reads = 0
  const holds = text.holds.bind(text)
  const rowsHolding = text.rowsHolding.bind(text)
  vi.spyOn(text, 'holds').mockImplementation((position, terms) => (reads++, holds(position, terms)))
  vi.spyOn(text, 'rowsHolding').mockImplementation((terms, from, to, into, count) => {
    // The rows of a range tested one by one (those not yet in a chunk) are counted by `holds`.
    const before = reads
    const found = rowsHolding(terms, from, to, into, count)
    reads = before + Math.max(0, to - from)
    return found
  })
  return {
    index,
    tested: () => {
      const count = reads
      reads = 0
      return count
    },
  }
}

const ids = (index: TableIndex<Row>, query: string, sort: { key: string; direction: 'asc' | 'desc' } | null = null): number[] =>
  applyView(index, { query, filters: {}, sort }).map((row) => row.id)

afterEach(() => {
  vi.useRealTimers()
})

describe('a search that reuses the searches before it', () => {
  it('tests only the rows the shorter query matched when the query grows', () => {
    const { index, tested } = countingIndex(listed)
    expect(ids(index, 'golden')).toEqual([1, 2, 3, 7])
    expect(tested()).toBe(listed.length)
    expect(ids(index, 'golden 9')).toEqual([1, 2])
    expect(tested()).toBe(4)
    expect(ids(index, 'golden 98')).toEqual([2])
    expect(tested()).toBe(2)
  })

  it('searches every row again when the shorter query matched too many rows to test them one by one', () => {
    const { index, tested } = countingIndex()
    expect(ids(index, 'golden')).toEqual([1, 2, 3, 7])
    expect(tested()).toBe(rows.length)
    // 4 of 7 rows: testing each costs more than a search through the chunks of all 7.
    expect(ids(index, 'golden 9')).toEqual([1, 2])
    expect(tested()).toBe(rows.length)
  })

  it('extends a search over rows appended after it (a long list arriving in slices) without testing the earlier rows again', () => {
    const { index, tested } = countingIndex(listed)
    const descending = { key: 'id', direction: 'desc' } as const
    expect(ids(index, 'golden')).toEqual([1, 2, 3, 7])
    expect(ids(index, 'golden', descending)).toEqual([7, 3, 2, 1])
    tested()
    index.update([...listed, { id: 8, name: 'golden 8' }, { id: 9, name: 'tin' }], columns)
    index.warm(10)
    expect(ids(index, 'golden')).toEqual([1, 2, 3, 7, 8])
    expect(tested()).toBe(2)
    expect(ids(index, 'golden 8')).toEqual([2, 8])
    expect(tested()).toBe(5)
    // A sorted search is run again: the new rows may belong anywhere in its order.
    expect(ids(index, 'golden', descending)).toEqual([8, 7, 3, 2, 1])
  })

  it('answers a query typed back from what it matched before, without testing a row', () => {
    const { index, tested } = countingIndex()
    ids(index, '42')
    ids(index, '421')
    tested()
    expect(ids(index, '42')).toEqual([5, 6, 7])
    expect(tested()).toBe(0)
  })

  it('finds the same rows as a search from scratch, in the order shown, whatever came before', () => {
    const sort = { key: 'name', direction: 'desc' as const }
    const fresh = (query: string): number[] => {
      const index = new TableIndex<Row>()
      index.update(rows, columns)
      return ids(index, query, sort)
    }
    const { index } = countingIndex()
    for (const query of ['g', 'go', 'gold', 'golden 9', 'golden 98', 'golden 9', '9 golden', 'golden', '4', '42', '4217', '42', 'zzz', 'zzz 9', 'g']) {
      expect(ids(index, query, sort)).toEqual(fresh(query))
    }
  })

  it('forgets its searches when the rows change', () => {
    const index = new TableIndex<Row>()
    index.update(rows, columns)
    expect(ids(index, 'silver')).toEqual([4])
    index.update([...rows, { id: 8, name: 'silver 1' }], columns)
    expect(ids(index, 'silver')).toEqual([4, 8])
    expect(ids(index, 'silver 1')).toEqual([8])
  })
})

describe('search strings of a new list', () => {
  it('are built right after the rows show, not a while later', async () => {
    vi.useFakeTimers()
    let built = 0
    const counted: TableColumn<Row>[] = [{ key: 'name', title: 'Name', kind: 'text', text: (row) => (built++, row.name) }]
    // As the store does: an empty list first, the rows once they came.
    const data = shallowRef<readonly Row[]>([])
    const table = useTable(data, shallowRef<readonly TableColumn<Row>[]>(counted))
    expect(table.visible.value).toHaveLength(0)
    data.value = rows
    expect(table.visible.value).toHaveLength(rows.length)
    await nextTick()
    // One turn of the event loop: no search was typed, yet every row's search string is there.
    vi.advanceTimersByTime(1)
    expect(built).toBe(rows.length)
    table.query.value = 'golden'
    expect(table.visible.value.map((row) => row.id)).toEqual([1, 2, 3, 7])
    expect(built).toBe(rows.length)
  })
})
