import { describe, expect, it } from 'vitest'
import { shallowRef } from 'vue'
import type { Entity } from '@contract'
import { buildColumns, titleWidth } from '../../../../../renderer/src/domain/entities/columns'
import { useTable } from '../../../../../renderer/src/lib/table'
import { brandsSpec, publishersSpec } from '../../fixtures/entitySpecs'

// Timings are the benchmark's job (test/bench/entities.bench.ts); this checks the answers at full size.
describe('entity columns through the table engine, 100,000 rows', () => {
  const count = 100_000
  const words = ['Bold', 'Quiet', 'Rapid', 'Silver', 'Golden', 'Northern']
  const big: Entity[] = Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `${words[(index * 7) % words.length]} Nest ${index + 1}`,
    url: `https://site-${index + 1}.example`,
    external_id: `PUB-${String(index + 1).padStart(6, '0')}`,
  }))
  const publisherColumns = buildColumns(publishersSpec, () => new Map())

  it('sort, search and filter correctly', () => {
    const data = shallowRef<readonly Entity[]>(big)
    const table = useTable(data, shallowRef(publisherColumns))
    expect(table.visible.value).toHaveLength(count)

    table.toggleSort('name')
    const sorted = table.visible.value
    const expected = big.map((row) => String(row.name).toLowerCase()).sort()
    expect(sorted.map((row) => String(row.name).toLowerCase())).toEqual(expected)

    table.toggleSort('id')
    table.toggleSort('id')
    expect(table.visible.value[0]?.id).toBe(count)
    expect(table.visible.value[count - 1]?.id).toBe(1)

    table.query.value = 'nest 4242'
    const searched = table.visible.value
    const haystack = (row: Entity): string => `${String(row.id)} ${String(row.name)} ${String(row.url)} ${String(row.external_id)}`.toLowerCase()
    const wanted = big
      .filter((row) => haystack(row).includes('nest') && haystack(row).includes('4242'))
      .map((row) => row.id)
      .sort((a, b) => Number(b) - Number(a))
    expect(searched.map((row) => row.id)).toEqual(wanted)
    expect(wanted.length).toBeGreaterThan(1)

    table.query.value = 'nest 42421'
    expect(table.visible.value.map((row) => row.id)).toEqual([42421])

    table.query.value = ''
    table.setFilter('external_id', 'pub-0999')
    expect(table.visible.value.map((row) => row.id)).toEqual(
      Array.from({ length: 100 }, (_, index) => 99999 - index).filter((id) => id <= 99999 && id >= 99900),
    )
    table.setFilter('id', '10..12')
    table.setFilter('external_id', '')
    expect(table.visible.value.map((row) => row.id)).toEqual([12, 11, 10])
  })
})

describe('entity column widths', () => {
  it('a title needs its longer line when split over two, plus the sort icon and padding', () => {
    expect(titleWidth('Private marketplace allowed')).toBe(19 * 8 + 36)
    expect(titleWidth('Open auction allowed')).toBe(12 * 8 + 36)
    expect(titleWidth('Size')).toBe(4 * 8 + 36)
  })

  it('no column is narrower than its title; web addresses and domains get a larger share than names', () => {
    const share = (width: string): number => Number(/([\d.]+)fr\)$/.exec(width)?.[1] ?? 0)
    for (const spec of [publishersSpec, brandsSpec]) {
      const columns = buildColumns(spec, () => new Map())
      for (const column of columns) expect(column.minWidth, column.key).toBeGreaterThanOrEqual(column.key === 'id' ? 84 : titleWidth(column.title))
      const byKey = new Map(columns.map((column) => [column.key, column]))
      const name = share(byKey.get('name')?.width ?? '')
      expect(share(byKey.get(spec === brandsSpec ? 'advertiser_domains' : 'url')?.width ?? '')).toBeGreaterThan(name)
    }
  })
})
