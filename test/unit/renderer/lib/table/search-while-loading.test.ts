import { describe, expect, it, vi } from 'vitest'
import { shallowRef } from 'vue'
import { TableIndex, applyView, useTable, type TableColumn } from '../../../../../renderer/src/lib/table'
import type { IdleScheduler, IdleTime } from '../../../../../renderer/src/lib/idle'

/**
 * A long list arriving in slices while the user types: a search looks only at the rows whose
 * search text is built (the warm-up builds the rest in short tasks, never a keystroke), and
 * once the list is complete and warm it gives exactly what a search over the whole list gives.
 */

interface Row {
  id: number
  name: string
}

const WORDS = ['golden', 'silver', 'bronze', 'gold leaf', 'iron']
const all: Row[] = Array.from({ length: 12_000 }, (_, position) => ({
  id: position + 1,
  name: `${WORDS[position % WORDS.length]} ${(position * 7919) % 10_007}`,
}))
const columns: TableColumn<Row>[] = [
  { key: 'id', title: 'ID', kind: 'number', text: (row) => String(row.id), sortValue: (row) => row.id },
  { key: 'name', title: 'Name', kind: 'text', text: (row) => row.name },
]
const QUERIES = ['4', '42', '421', '42', 'g', 'gol', 'golden 9', 'golden 98', 'golden', '9 gold']

/** What a search over these rows gives, worked out the plain way. */
function expected(rows: readonly Row[], query: string): number[] {
  const terms = query.toLowerCase().split(/\s+/)
  return rows.filter((row) => terms.every((term) => `${row.id}\u0001${row.name}\u0001`.toLowerCase().includes(term))).map((row) => row.id)
}

describe('a search while a long list arrives', () => {
  it('searches only the rows with search text, builds none inside a search, and ends equal to a search over the whole list', () => {
    const index = new TableIndex<Row>(500)
    let shown: Row[] = all.slice(0, 300)
    index.update(shown, columns)
    index.warm(Number.POSITIVE_INFINITY)
    let warmed = shown.length
    let typed = 0
    for (let end = 3_300; shown.length < all.length; end += 3_000) {
      // A slice arrives: a copy of the list, longer at the end; the warm-up builds part of the new rows' text.
      shown = all.slice(0, Math.min(end, all.length))
      index.update(shown, columns)
      index.warm(1_200)
      warmed = Math.min(shown.length, warmed + 1_200)
      for (let step = 0; step < 3; step++) {
        const query = QUERIES[typed++ % QUERIES.length] as string
        const found = applyView(index, { query, filters: {}, sort: null }, true).map((row) => row.id)
        expect(found).toEqual(expected(shown.slice(0, warmed), query))
        // The search built no text itself: the rows past the warm-up still wait for it.
        expect(index.warming).toBe(true)
      }
    }
    // The load is complete and the warm-up done: every kept search is extended over every row.
    index.warm(Number.POSITIVE_INFINITY)
    expect(index.warming).toBe(false)
    for (const query of QUERIES) expect(applyView(index, { query, filters: {}, sort: null }, true).map((row) => row.id)).toEqual(expected(all, query))
    // Sorted, a search sees every row at once (its order needs them all anyway).
    const sortedIndex = new TableIndex<Row>(500)
    sortedIndex.update(all.slice(0, 300), columns)
    sortedIndex.update(all, columns)
    const sorted = applyView(sortedIndex, { query: 'golden 9', filters: {}, sort: { key: 'id', direction: 'desc' } }, true).map((row) => row.id)
    expect(sorted).toEqual(expected(all, 'golden 9').reverse())
  })

  it('shows the matches among rows still arriving once the warm-up has built their text', async () => {
    const data = shallowRef<readonly Row[]>(all.slice(0, 300))
    const table = useTable(data, shallowRef(columns))
    table.query.value = 'golden 98'
    expect(table.visible.value.map((row) => row.id)).toEqual(expected(all.slice(0, 300), 'golden 98'))
    data.value = all.slice(0, 8_000)
    // At once: the rows already searchable (the new ones wait for the warm-up, in tasks of their own).
    expect(table.visible.value.map((row) => row.id)).toEqual(expected(all.slice(0, 300), 'golden 98'))
    await vi.waitFor(() => expect(table.visible.value.map((row) => row.id)).toEqual(expected(all.slice(0, 8_000), 'golden 98')))
    data.value = all
    await vi.waitFor(() => expect(table.visible.value.map((row) => row.id)).toEqual(expected(all, 'golden 98')))
    // A few rows appended (an entity created) are searched at once.
    const created = { id: 20_000, name: 'golden 98 new' }
    data.value = [...all, created]
    expect(table.visible.value.at(-1)).toBe(created)
  })
})

describe('the warm-up in idle time', () => {
  /** Idle moments a test runs by hand, each telling the callback it has no time left (the page is busy). */
  function busyIdle() {
    const waiting = new Map<number, (idle?: IdleTime) => void>()
    let next = 1
    const idle: IdleScheduler = {
      request: (callback) => (waiting.set(next, callback), next++),
      cancel: (handle) => void waiting.delete(handle),
    }
    const moment = (): void => [...waiting].forEach(([handle, callback]) => (waiting.delete(handle), callback({ timeRemaining: () => 0, didTimeout: false })))
    return { idle, moment, waiting }
  }

  it('builds nothing in plain tasks ahead of a keystroke, and no more than a slice in an idle moment with no time left', async () => {
    const { idle, moment, waiting } = busyIdle()
    const data = shallowRef<readonly Row[]>(all.slice(0, 300))
    const table = useTable(data, shallowRef(columns), idle)
    table.query.value = 'golden 98'
    expect(table.visible.value.map((row) => row.id)).toEqual(expected(all.slice(0, 300), 'golden 98'))
    data.value = all.slice(0, 8_000)
    expect(table.visible.value.map((row) => row.id)).toEqual(expected(all.slice(0, 300), 'golden 98'))
    // Tasks and frames pass: the warm-up waits for the page to be idle.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(waiting.size).toBe(1)
    expect(table.visible.value.map((row) => row.id)).toEqual(expected(all.slice(0, 300), 'golden 98'))
    // Idle moments with no time left: one slice of 500 rows each, so 7,700 rows take 16 of them (and one more for the search).
    let moments = 0
    while (waiting.size > 0) {
      moment()
      moments++
    }
    expect(moments).toBe(17)
    expect(table.visible.value.map((row) => row.id)).toEqual(expected(all.slice(0, 8_000), 'golden 98'))
  })
})
