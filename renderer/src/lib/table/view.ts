import { markRaw } from 'vue'
import { filterPredicate, type Predicate } from './filters'
import type { TableIndex } from './TableIndex'
import type { SortState, ViewState } from './types'

/**
 * The rows to show, in display order. Returns the data array itself when nothing applies. With
 * `indexedOnly`, a search leaves out rows appended whose search text is not built yet (see
 * `TableIndex.matching`): the caller asks again when the warm-up has built it.
 */
export function applyView<Row>(index: TableIndex<Row>, view: ViewState, indexedOnly = false): readonly Row[] {
  const order = index.order(view.sort)
  const query = view.query.trim().toLowerCase()
  const terms = query === '' ? [] : query.split(/\s+/)
  const tests: Array<{ texts: string[]; test: Predicate }> = []
  for (const [key, raw] of Object.entries(view.filters)) {
    const kind = index.columnKind(key)
    if (!kind) continue
    const test = filterPredicate(kind, raw)
    if (test) tests.push({ texts: index.columnTexts(key), test })
  }
  if (!order && terms.length === 0 && tests.length === 0) return index.all()
  // The search narrows first (kept and narrowed from earlier searches by the index), then the filters.
  const found = terms.length > 0 ? index.matching(view.sort, terms, indexedOnly) : null
  const size = found ? found.length : index.size
  if (tests.length === 0) {
    // Sized once: pushing 100,000 rows grew (and copied) the array many times per keystroke.
    const rows = new Array<Row>(size)
    for (let step = 0; step < size; step++) rows[step] = index.row(found ? (found[step] as number) : order ? (order[step] as number) : step)
    return markRaw(rows)
  }
  const result: Row[] = []
  for (let step = 0; step < size; step++) {
    const position = found ? (found[step] as number) : order ? (order[step] as number) : step
    let pass = true
    for (const { texts, test } of tests) {
      if (!test(texts[position] as string)) {
        pass = false
        break
      }
    }
    if (pass) result.push(index.row(position))
  }
  // Never made reactive: a 100,000-row list must not become 100,000 proxies in a component.
  return markRaw(result)
}

/** A header click: ascending, then descending, then unsorted; another column starts ascending. */
export function nextSort(current: SortState | null, key: string): SortState | null {
  if (!current || current.key !== key) return { key, direction: 'asc' }
  if (current.direction === 'asc') return { key, direction: 'desc' }
  return null
}

/** The filters with one column's filter set, or removed when the text is blank. */
export function withFilter(filters: Record<string, string>, key: string, value: string): Record<string, string> {
  const next = { ...filters }
  if (value.trim() === '') delete next[key]
  else next[key] = value
  return next
}
