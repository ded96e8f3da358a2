import { computed, getCurrentScope, markRaw, onScopeDispose, shallowRef, watch, type Ref } from 'vue'

/**
 * Sort, quick search and per-column filters over plain arrays, fast enough for 100,000 rows.
 *
 * Derived data is computed once per data change and reused by every keystroke: one lowercase
 * search string per row, per-column lowercase texts (for filters) and sort keys, built lazily
 * the first time a column is filtered or sorted. When rows only grow at the end (a sync
 * streaming pages in), the caches are extended instead of rebuilt.
 */

export type ColumnKind = 'text' | 'number' | 'boolean'

export interface TableColumn<Row> {
  key: string
  title: string
  kind: ColumnKind
  /** What the cell shows (a reference's name, "Yes"/"No", domains joined). Searched and filtered. */
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

const SEPARATOR = '\u0001'
const WARM_SLICE = 20_000
const WARM_DELAY_MS = 100

/** Caches derived from one data array and one set of columns. */
export class TableIndex<Row> {
  private rows: readonly Row[] = []
  private columns: readonly TableColumn<Row>[] = []
  private search: string[] = []
  private texts = new Map<string, string[]>()
  private sortKeys = new Map<string, Array<number | string | null>>()
  private sortedOrders = new Map<string, Uint32Array>()

  /** Points the index at new data; keeps what can be kept. */
  update(rows: readonly Row[], columns: readonly TableColumn<Row>[]): void {
    const sameColumns = columns === this.columns
    const old = this.rows
    // Rows streaming in only add to the end: keep what was built. Any other change (an edited
    // row is a new object at the same place) starts over, or searches would see old values.
    const appended = sameColumns && rows.length >= old.length && old.every((row, position) => rows[position] === row)
    this.rows = rows
    this.columns = columns
    this.sortedOrders.clear()
    if (!appended) {
      this.search = []
      this.texts.clear()
      this.sortKeys.clear()
    }
  }

  get size(): number {
    return this.rows.length
  }

  private extend<T>(list: T[], make: (row: Row) => T): T[] {
    for (let index = list.length; index < this.rows.length; index++) list.push(make(this.rows[index] as Row))
    return list
  }

  /** Builds the search strings of up to `rows` more rows; true when all are built. For idle-time warm-up. */
  warm(rows: number): boolean {
    const columns = this.columns
    const limit = Math.min(this.rows.length, this.search.length + rows)
    for (let index = this.search.length; index < limit; index++) {
      const row = this.rows[index] as Row
      let joined = ''
      for (const column of columns) joined += column.text(row) + SEPARATOR
      this.search.push(joined.toLowerCase())
    }
    return this.search.length >= this.rows.length
  }

  searchStrings(): string[] {
    const columns = this.columns
    return this.extend(this.search, (row) => {
      let joined = ''
      for (const column of columns) joined += column.text(row) + SEPARATOR
      return joined.toLowerCase()
    })
  }

  columnTexts(key: string): string[] {
    const column = this.columns.find((candidate) => candidate.key === key)
    if (!column) return []
    let list = this.texts.get(key)
    if (!list) this.texts.set(key, (list = []))
    return this.extend(list, (row) => column.text(row).toLowerCase())
  }

  private keys(key: string): Array<number | string | null> {
    const column = this.columns.find((candidate) => candidate.key === key)
    if (!column) return []
    let list = this.sortKeys.get(key)
    if (!list) this.sortKeys.set(key, (list = []))
    const value = column.sortValue ?? ((row: Row) => column.text(row).toLowerCase())
    return this.extend(list, value)
  }

  /** Row positions in sorted order (stable: ties keep the data order). */
  order(sort: SortState | null): Uint32Array | null {
    if (!sort) return null
    const cacheKey = `${sort.key}:${sort.direction}`
    const cached = this.sortedOrders.get(cacheKey)
    if (cached) return cached
    const keys = this.keys(sort.key)
    const sign = sort.direction === 'asc' ? 1 : -1
    const positions = new Uint32Array(this.rows.length)
    for (let index = 0; index < positions.length; index++) positions[index] = index
    positions.sort((left, right) => {
      const a = keys[left] ?? null
      const b = keys[right] ?? null
      if (a === b) return left - right
      // Empty values go last whatever the direction.
      if (a === null || a === '') return 1
      if (b === null || b === '') return -1
      if (typeof a === 'number' && typeof b === 'number') return (a - b) * sign
      const sa = String(a)
      const sb = String(b)
      return (sa < sb ? -1 : sa > sb ? 1 : 0) * sign || left - right
    })
    this.sortedOrders.set(cacheKey, positions)
    return positions
  }

  columnKind(key: string): ColumnKind | undefined {
    return this.columns.find((column) => column.key === key)?.kind
  }

  /** The data itself, in data order. */
  all(): readonly Row[] {
    return this.rows
  }

  row(position: number): Row {
    return this.rows[position] as Row
  }
}

type Predicate = (text: string) => boolean

/** Turns one column filter into a test on that column's lowercase text. */
export function filterPredicate(kind: ColumnKind, raw: string): Predicate | null {
  const filter = raw.trim().toLowerCase()
  if (filter === '') return null
  if (kind === 'boolean') {
    const wanted = ['yes', 'true', '1', 'on'].includes(filter) ? 'yes' : ['no', 'false', '0', 'off'].includes(filter) ? 'no' : null
    return wanted === null ? (text) => text.includes(filter) : (text) => text === wanted
  }
  if (kind === 'number') {
    const range = /^(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)$/.exec(filter)
    if (range) {
      const low = Number(range[1])
      const high = Number(range[2])
      return (text) => text !== '' && Number(text) >= low && Number(text) <= high
    }
    const comparison = /^(>=|<=|>|<|=|!=)\s*(-?\d+(?:\.\d+)?)$/.exec(filter)
    if (comparison) {
      const operator = comparison[1]
      const bound = Number(comparison[2])
      return (text) => {
        if (text === '') return false
        const value = Number(text)
        switch (operator) {
          case '>': return value > bound
          case '>=': return value >= bound
          case '<': return value < bound
          case '<=': return value <= bound
          case '!=': return value !== bound
          default: return value === bound
        }
      }
    }
  }
  return (text) => text.includes(filter)
}

/** The rows to show, in display order. Returns the data array itself when nothing applies. */
export function applyView<Row>(index: TableIndex<Row>, view: ViewState): readonly Row[] {
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
  const search = terms.length > 0 ? index.searchStrings() : null
  const size = index.size
  const result: Row[] = []
  for (let step = 0; step < size; step++) {
    const position = order ? (order[step] as number) : step
    if (search) {
      const haystack = search[position] as string
      let all = true
      for (const term of terms) {
        if (!haystack.includes(term)) {
          all = false
          break
        }
      }
      if (!all) continue
    }
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

/**
 * Reactive wrapper: `visible` follows rows, columns, the search box, the filters and the sort.
 * Rows are never made deeply reactive; the caller passes a shallow ref of a plain array.
 */
export function useEntityTable<Row>(rows: Ref<readonly Row[]>, columns: Ref<readonly TableColumn<Row>[]>) {
  const query = shallowRef('')
  const filters = shallowRef<Record<string, string>>({})
  const sort = shallowRef<SortState | null>(null)
  const index = new TableIndex<Row>()
  // Recomputed only when the data or the columns change; every keystroke reuses it.
  const indexed = computed(() => {
    index.update(rows.value, columns.value)
    return { index }
  })

  const visible = computed<readonly Row[]>(() => applyView(indexed.value.index, { query: query.value, filters: filters.value, sort: sort.value }))

  // Search strings are built in idle slices after the rows are shown, so the list opens at once and
  // the first keystroke finds them ready.
  let warming: ReturnType<typeof setTimeout> | null = null
  const warmUp = (): void => {
    warming = null
    if (!index.warm(WARM_SLICE)) warming = setTimeout(warmUp, 0)
  }
  watch(indexed, () => {
    if (warming !== null) clearTimeout(warming)
    warming = setTimeout(warmUp, WARM_DELAY_MS)
  }, { flush: 'post' })
  if (getCurrentScope()) {
    onScopeDispose(() => {
      if (warming !== null) clearTimeout(warming)
    })
  }

  /** Header click: ascending, then descending, then unsorted. */
  function toggleSort(key: string): void {
    const current = sort.value
    if (!current || current.key !== key) sort.value = { key, direction: 'asc' }
    else if (current.direction === 'asc') sort.value = { key, direction: 'desc' }
    else sort.value = null
  }

  function setFilter(key: string, value: string): void {
    const next = { ...filters.value }
    if (value.trim() === '') delete next[key]
    else next[key] = value
    filters.value = next
  }

  function clear(): void {
    query.value = ''
    filters.value = {}
  }

  const filtered = computed(() => query.value.trim() !== '' || Object.keys(filters.value).length > 0)

  return { query, filters, sort, visible, filtered, toggleSort, setFilter, clear }
}
