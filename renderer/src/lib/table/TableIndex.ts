import { CHUNK_ROWS, SearchText } from './SearchText'
import type { ColumnKind, SortState, TableColumn } from './types'

/**
 * Caches derived from one data array and one set of columns, so that every keystroke reuses
 * them: the lowercase search text of every row (in a few large strings, see SearchText), per-column lowercase texts (for filters) and sort
 * keys, each built lazily the first time it is needed. When rows only grow at the end (a sync
 * streaming pages in), the caches are extended instead of rebuilt.
 */

const SEPARATOR = '\u0001'
/** Rows appended without search text that a search still builds it for at once (about a millisecond's work). */
const EAGER_ROWS = 1_000
/** Searches kept for the current rows: typing back to an earlier query, or on from one, reuses it. */
const KEPT_SEARCHES = 8
/**
 * Testing one row a kept search matched costs this many rows of a search through whole chunks
 * (a slice of the row's text and an `includes` per term, against `indexOf` running over a chunk):
 * a query grown from a kept one tests only that one's rows when they are fewer than the rows over
 * this. Measured in Node over the 100,040 publishers: '42' after '4' (40,956 rows to test) took
 * 6.2 ms that way, 35 ms the first time, where a search of every row took 2.9 (3.7 the first
 * time); 'gol' after 'go' (8,477 rows) took 2.3 ms either way.
 */
const ROW_TEST_COST = 8

/**
 * A search's terms and the positions of the rows it matched, in the display order of its sort,
 * among the first `scanned` rows (an unsorted search outlives rows appended after it).
 */
interface KeptSearch {
  sortKey: string
  terms: readonly string[]
  positions: Uint32Array
  scanned: number
}

/**
 * Whether `rows` begins with every row of `head`, the same objects in the same order. A plain
 * loop: it runs over up to 100,000 rows at each slice of a long list arriving, and `every` with
 * a callback cost several times more there.
 */
function startsWith<Row>(rows: readonly Row[], head: readonly Row[]): boolean {
  if (rows.length < head.length) return false
  if (rows === head) return true
  for (let position = 0; position < head.length; position++) if (rows[position] !== head[position]) return false
  return true
}

export class TableIndex<Row> {
  private rows: readonly Row[] = []
  private columns: readonly TableColumn<Row>[] = []
  private readonly search: SearchText
  /** Scratch space of a scan, reused by every keystroke: a result is copied out at its length. */
  private scratch = new Uint32Array(0)
  private marks = new Uint8Array(0)
  private texts = new Map<string, string[]>()
  private sortKeys = new Map<string, Array<number | string | null>>()
  private sortedOrders = new Map<string, Uint32Array>()
  /** Recent searches, oldest first (a Map keeps insertion order). */
  private searches = new Map<string, KeptSearch>()
  /**
   * How many rows a search must see even when it may stop at the rows with search text: all the
   * rows of the last change that was not rows appended (an edit, new columns). Rows appended
   * after it may wait for the warm-up (see `matching`).
   */
  private settled = 0

  /** `chunkRows`: rows per string of search text (tests use small chunks to cross their edges). */
  constructor(chunkRows: number = CHUNK_ROWS) {
    this.search = new SearchText(chunkRows)
  }

  /** Points the index at new data; keeps what can be kept. */
  update(rows: readonly Row[], columns: readonly TableColumn<Row>[]): void {
    const sameColumns = columns === this.columns
    const old = this.rows
    // Rows streaming in only add to the end: keep what was built. Any other change (an edited
    // row is a new object at the same place) starts over, or searches would see old values.
    const appended = sameColumns && startsWith(rows, old)
    this.rows = rows
    this.columns = columns
    this.sortedOrders.clear()
    // Rows appended (a long list still arriving in slices) leave unsorted searches right for the
    // rows they saw: each is extended over the new rows only, not run again over all of them.
    for (const [key, kept] of this.searches) if (!appended || kept.sortKey !== '') this.searches.delete(key)
    if (!appended) {
      this.search.clear()
      this.texts.clear()
      this.sortKeys.clear()
      this.settled = rows.length
    }
  }

  get size(): number {
    return this.rows.length
  }

  private extend<T>(list: T[], make: (row: Row) => T): T[] {
    for (let index = list.length; index < this.rows.length; index++) list.push(make(this.rows[index] as Row))
    return list
  }

  /** A row's cells joined, as shown: SearchText lowercases a whole chunk of rows at once. */
  private searchString(row: Row): string {
    let joined = ''
    for (const column of this.columns) joined += column.text(row) + SEPARATOR
    return joined
  }

  /** Builds the search text of up to `rows` more rows; true when all are built. For idle-time warm-up. */
  warm(rows: number): boolean {
    const limit = Math.min(this.rows.length, this.search.length + rows)
    for (let index = this.search.length; index < limit; index++) this.search.push(this.searchString(this.rows[index] as Row))
    return this.search.length >= this.rows.length
  }

  /** The search text of every row, built now for the rows still without it. */
  searchText(): SearchText {
    this.warm(Number.POSITIVE_INFINITY)
    return this.search
  }

  /** Whether rows appended lately still wait for their search text (a search with `indexedOnly` did not see them). */
  get warming(): boolean {
    return this.search.length < this.rows.length
  }

  /**
   * How far an unsorted search looks: every row, or with `indexedOnly` the rows whose search text
   * is built (at least the settled rows, built now if need be). Rows of a long list arriving in
   * slices then never have their search text built inside a keystroke: the warm-up builds it in
   * short tasks and the search is extended over them afterwards.
   */
  private searchable(indexedOnly: boolean): number {
    // A few rows appended (an entity created) are searched at once: their text costs next to nothing.
    if (!indexedOnly || this.rows.length - this.search.length <= EAGER_ROWS) return this.searchText().length
    if (this.search.length < this.settled) this.warm(this.settled - this.search.length)
    return this.search.length
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

  /**
   * The positions of the rows whose search string holds every term, in display order (`sort`).
   * A search whose terms each hold a term of a kept search (the query grew: `42` after `4`,
   * `golden 9` after `golden`) can only match rows that one matched, so only those are
   * tested; a search kept before (the query shrank back) is answered at once. With
   * `indexedOnly`, an unsorted search leaves out rows appended whose search text is not built yet
   * (`warming`); asked again later, it is extended over them.
   */
  matching(sort: SortState | null, terms: readonly string[], indexedOnly = false): Uint32Array {
    const sortKey = sort === null ? '' : `${sort.key}:${sort.direction}`
    const key = `${sortKey}\u0000${terms.join('\u0000')}`
    // A sorted search needs every row's sort key and search text anyway.
    const size = this.searchable(indexedOnly && sort === null)
    const kept = this.searches.get(key)
    if (kept) {
      // Most recently used last.
      this.searches.delete(key)
      this.searches.set(key, kept)
      if (kept.scanned < size) {
        const added = this.scan(terms, null, kept.scanned, size)
        const positions = new Uint32Array(kept.positions.length + added.length)
        positions.set(kept.positions)
        positions.set(added, kept.positions.length)
        kept.positions = positions
        kept.scanned = size
      }
      return kept.positions
    }
    let narrowest: KeptSearch | null = null
    const cost = (search: KeptSearch): number => search.positions.length + size - search.scanned
    for (const earlier of this.searches.values()) {
      if (earlier.sortKey !== sortKey) continue
      const narrows = earlier.terms.every((term) => terms.some((next) => next.includes(term)))
      if (narrows && (narrowest === null || cost(earlier) < cost(narrowest))) narrowest = earlier
    }
    // Its rows are a superset of the answer, but testing many of them costs more than searching every row.
    if (narrowest !== null && cost(narrowest) * ROW_TEST_COST > size) narrowest = null
    const order = this.order(sort)
    const positions = narrowest
      ? this.scan(terms, narrowest.positions, narrowest.scanned, size)
      : order
        ? this.scanInOrder(terms, order)
        : this.scan(terms, null, 0, size)
    this.searches.set(key, { sortKey, terms: [...terms], positions, scanned: size })
    if (this.searches.size > KEPT_SEARCHES) this.searches.delete(this.searches.keys().next().value as string)
    return positions
  }

  /** The positions among `head`, then among the rows from `from` to `size` (data order), whose search text holds every term. */
  private scan(terms: readonly string[], head: Uint32Array | null, from: number, size: number): Uint32Array {
    const text = this.search
    const headCount = head === null ? 0 : head.length
    const found = this.scratchFor(headCount + Math.max(0, size - from))
    let matched = 0
    for (let step = 0; step < headCount; step++) {
      const position = (head as Uint32Array)[step] as number
      if (text.holds(position, terms)) found[matched++] = position
    }
    matched = text.rowsHolding(terms, from, size, found, matched)
    return found.slice(0, matched)
  }

  /** The positions in `order` (every row, in display order) whose search text holds every term. */
  private scanInOrder(terms: readonly string[], order: Uint32Array): Uint32Array {
    const size = this.rows.length
    const found = this.scratchFor(size)
    const matched = this.searchText().rowsHolding(terms, 0, size, found, 0)
    if (this.marks.length < size) this.marks = new Uint8Array(size)
    const marks = this.marks
    for (let step = 0; step < matched; step++) marks[found[step] as number] = 1
    let kept = 0
    for (let step = 0; step < order.length; step++) {
      const position = order[step] as number
      if (marks[position] === 1) found[kept++] = position
    }
    // Cleared where set only, ready for the next search.
    for (let step = 0; step < kept; step++) marks[found[step] as number] = 0
    return found.slice(0, kept)
  }

  private scratchFor(length: number): Uint32Array {
    if (this.scratch.length < length) this.scratch = new Uint32Array(length)
    return this.scratch
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
