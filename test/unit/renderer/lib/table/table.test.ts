import { describe, expect, it } from 'vitest'
import { isReactive, reactive, shallowRef } from 'vue'
import { TableIndex, applyView, filterPredicate, nextSort, useTable, withFilter, type TableColumn } from '../../../../../renderer/src/lib/table'

interface Row {
  id: number
  name: string
  score: number | null
  active: boolean
}

const columns: TableColumn<Row>[] = [
  { key: 'id', title: 'ID', kind: 'number', text: (row) => String(row.id), sortValue: (row) => row.id },
  { key: 'name', title: 'Name', kind: 'text', text: (row) => row.name },
  { key: 'score', title: 'Score', kind: 'number', text: (row) => (row.score === null ? '' : String(row.score)), sortValue: (row) => row.score },
  { key: 'active', title: 'Active', kind: 'boolean', text: (row) => (row.active ? 'yes' : 'no'), sortValue: (row) => (row.active ? 1 : 0) },
]

const rows: Row[] = [
  { id: 1, name: 'Bravo News', score: 10, active: true },
  { id: 2, name: 'alpha Daily', score: null, active: false },
  { id: 3, name: 'Charlie Post', score: 5, active: true },
  { id: 4, name: 'Delta news', score: 20, active: false },
]

function view(query = '', filters: Record<string, string> = {}, sort: { key: string; direction: 'asc' | 'desc' } | null = null): number[] {
  const index = new TableIndex<Row>()
  index.update(rows, columns)
  return applyView(index, { query, filters, sort }).map((row) => row.id)
}

describe('table view', () => {
  it('keeps data order without sort, search or filters', () => {
    expect(view()).toEqual([1, 2, 3, 4])
  })

  it('sorts text case-insensitively, numbers numerically, empty values last in both directions', () => {
    expect(view('', {}, { key: 'name', direction: 'asc' })).toEqual([2, 1, 3, 4])
    expect(view('', {}, { key: 'name', direction: 'desc' })).toEqual([4, 3, 1, 2])
    expect(view('', {}, { key: 'score', direction: 'asc' })).toEqual([3, 1, 4, 2])
    expect(view('', {}, { key: 'score', direction: 'desc' })).toEqual([4, 1, 3, 2])
  })

  it('is stable: ties keep the data order', () => {
    expect(view('', {}, { key: 'active', direction: 'desc' })).toEqual([1, 3, 2, 4])
  })

  it('searches every field, case-insensitively, all words', () => {
    expect(view('NEWS')).toEqual([1, 4])
    expect(view('news delta')).toEqual([4])
    expect(view('20')).toEqual([4])
    expect(view('nothing-like-this')).toEqual([])
  })

  it('filters per column: text, number comparisons and ranges, booleans', () => {
    expect(view('', { name: 'post' })).toEqual([3])
    expect(view('', { score: '>=10' })).toEqual([1, 4])
    expect(view('', { score: '5..10' })).toEqual([1, 3])
    expect(view('', { score: '!=10' })).toEqual([3, 4])
    expect(view('', { active: 'yes' })).toEqual([1, 3])
    expect(view('', { active: 'no', name: 'a' })).toEqual([2, 4])
    expect(view('news', { active: 'no' }, { key: 'id', direction: 'desc' })).toEqual([4])
  })

  it('understands filter syntax', () => {
    expect(filterPredicate('number', '  ')).toBeNull()
    expect(filterPredicate('number', '>3')?.('4')).toBe(true)
    expect(filterPredicate('number', '>3')?.('')).toBe(false)
    expect(filterPredicate('boolean', 'true')?.('yes')).toBe(true)
    expect(filterPredicate('text', 'Abc')?.('xabcx')).toBe(true)
  })
})

describe('view state changes', () => {
  it("cycle a column's sort asc, desc, none; another column starts asc", () => {
    expect(nextSort(null, 'name')).toEqual({ key: 'name', direction: 'asc' })
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' })
    expect(nextSort({ key: 'name', direction: 'desc' }, 'name')).toBeNull()
    expect(nextSort({ key: 'name', direction: 'desc' }, 'id')).toEqual({ key: 'id', direction: 'asc' })
  })

  it('set a filter, or drop it when blank, without touching the others', () => {
    const before = { name: 'post' }
    expect(withFilter(before, 'score', '>3')).toEqual({ name: 'post', score: '>3' })
    expect(withFilter(before, 'name', '  ')).toEqual({})
    expect(before).toEqual({ name: 'post' })
  })
})

describe('TableIndex', () => {
  it('hands back the data array itself when nothing applies, and a non-reactive copy otherwise', () => {
    const index = new TableIndex<Row>()
    index.update(rows, columns)
    expect(applyView(index, { query: '', filters: {}, sort: null })).toBe(rows)
    const sorted = applyView(index, { query: '', filters: {}, sort: { key: 'id', direction: 'desc' } })
    expect(sorted).not.toBe(rows)
    // Put into reactive state, it stays a plain array: no proxy per row.
    expect(isReactive(reactive({ sorted }).sorted)).toBe(false)
  })

  it('warms search strings in slices and then searches with them', () => {
    let calls = 0
    const counted: TableColumn<Row>[] = [{ key: 'name', title: 'Name', kind: 'text', text: (row) => (calls++, row.name) }]
    const index = new TableIndex<Row>()
    index.update(rows, counted)
    expect(index.warm(3)).toBe(false)
    expect(calls).toBe(3)
    expect(index.warm(3)).toBe(true)
    expect(calls).toBe(4)
    expect(applyView(index, { query: 'delta', filters: {}, sort: null }).map((row) => row.id)).toEqual([4])
    expect(calls).toBe(4)
  })

  it('ignores filters and sorts on columns it does not have', () => {
    const index = new TableIndex<Row>()
    index.update(rows, columns)
    expect(applyView(index, { query: '', filters: { nope: 'x' }, sort: null })).toBe(rows)
    expect(applyView(index, { query: '', filters: {}, sort: { key: 'nope', direction: 'asc' } }).map((row) => row.id)).toEqual([1, 2, 3, 4])
  })
})

describe('useTable', () => {
  it('reacts to rows, query, filters and sort; header clicks cycle asc, desc, none', () => {
    const data = shallowRef<readonly Row[]>(rows)
    const cols = shallowRef<readonly TableColumn<Row>[]>(columns)
    const table = useTable(data, cols)
    expect(table.visible.value).toHaveLength(4)
    table.query.value = 'news'
    expect(table.visible.value.map((row) => row.id)).toEqual([1, 4])
    table.toggleSort('id')
    table.toggleSort('id')
    expect(table.sort.value).toEqual({ key: 'id', direction: 'desc' })
    expect(table.visible.value.map((row) => row.id)).toEqual([4, 1])
    table.toggleSort('id')
    expect(table.sort.value).toBeNull()
    table.setFilter('active', 'yes')
    expect(table.visible.value.map((row) => row.id)).toEqual([1])
    expect(table.filtered.value).toBe(true)
    data.value = [...rows, { id: 5, name: 'Echo News', score: 1, active: true }]
    expect(table.visible.value.map((row) => row.id)).toEqual([1, 5])
    table.clear()
    expect(table.filtered.value).toBe(false)
    expect(table.visible.value).toHaveLength(5)
  })

  it('extends its caches when rows stream in at the end, and rebuilds when they are replaced', () => {
    const index = new TableIndex<Row>()
    const first = rows.slice(0, 2)
    index.update(first, columns)
    expect(applyView(index, { query: 'charlie', filters: {}, sort: null })).toEqual([])
    index.update(rows, columns)
    expect(applyView(index, { query: 'charlie', filters: {}, sort: null }).map((row) => row.id)).toEqual([3])
    const renamed = rows.map((row) => (row.id === 3 ? { ...row, name: 'Zulu' } : row))
    renamed[0] = { ...(rows[0] as Row) }
    index.update(renamed, columns)
    expect(applyView(index, { query: 'charlie', filters: {}, sort: null })).toEqual([])
  })
})

describe('TableIndex after an edit', () => {
  it('searches the edited values, not the ones indexed before', () => {
    type Named = { id: number; name: string }
    const named: TableColumn<Named>[] = [{ key: 'name', title: 'Name', kind: 'text', text: (row) => row.name }]
    const index = new TableIndex<Named>()
    const before: Named[] = [
      { id: 1, name: 'Alpha' },
      { id: 2, name: 'Bravo' },
      { id: 3, name: 'Charlie' },
    ]
    index.update(before, named)
    expect(applyView(index, { query: 'bravo', filters: {}, sort: null }).map((row) => row.id)).toEqual([2])
    // The store replaces an edited row with a new object in the same place.
    const after: Named[] = [before[0] as Named, { id: 2, name: 'Renamed' }, before[2] as Named]
    index.update(after, named)
    expect(applyView(index, { query: 'bravo', filters: {}, sort: null })).toEqual([])
    expect(applyView(index, { query: 'renamed', filters: {}, sort: null }).map((row) => row.id)).toEqual([2])
  })
})
