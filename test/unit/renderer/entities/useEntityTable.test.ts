import { describe, expect, it } from 'vitest'
import { shallowRef } from 'vue'
import type { Entity } from '@contract'
import { buildColumns } from '../../../../renderer/src/composables/entities/columns'
import { TableIndex, applyView, filterPredicate, useEntityTable, type TableColumn } from '../../../../renderer/src/composables/entities/useEntityTable'
import { publishersSpec } from './specs'

interface Row { id: number; name: string; score: number | null; active: boolean }

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

describe('entity table view', () => {
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

describe('useEntityTable', () => {
  it('reacts to rows, query, filters and sort; header clicks cycle asc, desc, none', () => {
    const data = shallowRef<readonly Row[]>(rows)
    const cols = shallowRef<readonly TableColumn<Row>[]>(columns)
    const table = useEntityTable(data, cols)
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
    renamed[0] = { ...rows[0] as Row }
    index.update(renamed, columns)
    expect(applyView(index, { query: 'charlie', filters: {}, sort: null })).toEqual([])
  })
})

describe('100,000 rows', () => {
  const count = 100_000
  const words = ['Bold', 'Quiet', 'Rapid', 'Silver', 'Golden', 'Northern']
  const big: Entity[] = Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `${words[(index * 7) % words.length]} Nest ${index + 1}`,
    url: `https://site-${index + 1}.example`,
    external_id: `PUB-${String(index + 1).padStart(6, '0')}`,
  }))
  const publisherColumns = buildColumns(publishersSpec, () => new Map())

  it('sorts, searches and filters correctly and quickly', () => {
    const data = shallowRef<readonly Entity[]>(big)
    const table = useEntityTable(data, shallowRef(publisherColumns))
    expect(table.visible.value).toHaveLength(count)

    let started = performance.now()
    table.toggleSort('name')
    const sorted = table.visible.value
    const sortMs = performance.now() - started
    const expected = big.map((row) => String(row.name).toLowerCase()).sort()
    expect(sorted.map((row) => String(row.name).toLowerCase())).toEqual(expected)

    table.toggleSort('id')
    table.toggleSort('id')
    expect(table.visible.value[0]?.id).toBe(count)
    expect(table.visible.value[count - 1]?.id).toBe(1)

    started = performance.now()
    table.query.value = 'nest 4242'
    const searched = table.visible.value
    const searchMs = performance.now() - started
    const haystack = (row: Entity): string => `${String(row.id)} ${String(row.name)} ${String(row.url)} ${String(row.external_id)}`.toLowerCase()
    const wanted = big.filter((row) => haystack(row).includes('nest') && haystack(row).includes('4242')).map((row) => row.id).sort((a, b) => Number(b) - Number(a))
    expect(searched.map((row) => row.id)).toEqual(wanted)
    expect(wanted.length).toBeGreaterThan(1)

    started = performance.now()
    table.query.value = 'nest 42421'
    expect(table.visible.value.map((row) => row.id)).toEqual([42421])
    const keystrokeMs = performance.now() - started

    table.query.value = ''
    table.setFilter('external_id', 'pub-0999')
    expect(table.visible.value.map((row) => row.id)).toEqual(Array.from({ length: 100 }, (_, index) => 99999 - index).filter((id) => id <= 99999 && id >= 99900))
    table.setFilter('id', '10..12')
    table.setFilter('external_id', '')
    expect(table.visible.value.map((row) => row.id)).toEqual([12, 11, 10])

    // Generous bounds for slow CI machines; the benchmark measures the real figures in Chromium.
    expect(sortMs).toBeLessThan(3_000)
    expect(searchMs).toBeLessThan(1_000)
    expect(keystrokeMs).toBeLessThan(500)
  })
})

describe('TableIndex after an edit', () => {
  it('searches the edited values, not the ones indexed before', () => {
    type Named = { id: number; name: string }
    const named: TableColumn<Named>[] = [{ key: 'name', title: 'Name', kind: 'text', text: (row) => row.name }]
    const index = new TableIndex<Named>()
    const before: Named[] = [{ id: 1, name: 'Alpha' }, { id: 2, name: 'Bravo' }, { id: 3, name: 'Charlie' }]
    index.update(before, named)
    expect(applyView(index, { query: 'bravo', filters: {}, sort: null }).map((row) => row.id)).toEqual([2])
    // The store replaces an edited row with a new object in the same place.
    const after: Named[] = [before[0] as Named, { id: 2, name: 'Renamed' }, before[2] as Named]
    index.update(after, named)
    expect(applyView(index, { query: 'bravo', filters: {}, sort: null })).toEqual([])
    expect(applyView(index, { query: 'renamed', filters: {}, sort: null }).map((row) => row.id)).toEqual([2])
  })
})
