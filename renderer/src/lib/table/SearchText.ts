/**
 * The lowercase search text of every row, kept as a few large strings (chunks of `chunkRows`
 * rows joined by a separator) plus each chunk's table of row offsets, instead of one string per
 * row: 100,000 small strings promoted to the old generation right after a list opens made the
 * garbage collector copy and mark 100,000 objects during the first keystrokes; 50 big strings
 * cost it next to nothing. A search runs `indexOf` over a chunk and maps each hit back to its row
 * by stepping through the offsets.
 *
 * Rows are added at the end only, as they are (not lowercased): a chunk is lowercased in one call
 * when it is full, which costs a fraction of lowercasing each of its 2,000 rows on its own (the
 * warm-up that builds this text runs while a long list still arrives, under the first
 * keystrokes). The last rows (fewer than a chunk) wait as they came; a search lowercases them as
 * one provisional chunk, kept until a row is added, so a list still arriving never joins the same
 * rows twice into a chunk.
 */

/** Between rows in a chunk: typed text never holds it, so no hit spans two rows (bounds are checked anyway). */
const ROW_SEPARATOR = '\u0000'
export const CHUNK_ROWS = 2_000

/** Rows joined into one lowercase string, and where each row starts in it (one more entry: where a next row would start). */
interface Packed {
  text: string
  starts: Uint32Array
}

/**
 * Joins rows and lowercases them. Lowercasing the joined text gives the rows' lowercase texts
 * joined (the separator is neither a letter nor ignorable, so no letter's lowercase depends on a
 * neighbouring row), unless a character's lowercase is longer or shorter than itself (`İ`
 * becomes `i̇`), which would shift the offsets: such rows are lowercased one by one.
 */
function pack(rows: readonly string[]): Packed {
  const starts = new Uint32Array(rows.length + 1)
  let at = 0
  for (let row = 0; row < rows.length; row++) {
    starts[row] = at
    at += (rows[row] as string).length + ROW_SEPARATOR.length
  }
  starts[rows.length] = at
  const joined = rows.join(ROW_SEPARATOR)
  const text = joined.toLowerCase()
  if (text.length === joined.length) return { text, starts }
  const lowered = rows.map((row) => row.toLowerCase())
  at = 0
  for (let row = 0; row < lowered.length; row++) {
    starts[row] = at
    at += (lowered[row] as string).length + ROW_SEPARATOR.length
  }
  starts[lowered.length] = at
  return { text: lowered.join(ROW_SEPARATOR), starts }
}

export class SearchText {
  private chunks: Packed[] = []
  /** The rows after the last chunk, as added. */
  private tail: string[] = []
  /** The tail lowercased, built by the first search after a row was added. */
  private packedTail: Packed | null = null

  constructor(private readonly chunkRows: number = CHUNK_ROWS) {}

  /** How many rows have their text. */
  get length(): number {
    return this.chunks.length * this.chunkRows + this.tail.length
  }

  clear(): void {
    this.chunks = []
    this.tail = []
    this.packedTail = null
  }

  /** Adds the next row's text (any case: the search is lowercase). */
  push(text: string): void {
    this.tail.push(text)
    this.packedTail = null
    if (this.tail.length >= this.chunkRows) {
      this.chunks.push(pack(this.tail))
      this.tail = []
    }
  }

  /** The chunk that holds a row: a full one, or the tail as a provisional chunk. */
  private chunkAt(chunk: number): Packed {
    if (chunk < this.chunks.length) return this.chunks[chunk] as Packed
    if (this.packedTail === null) this.packedTail = pack(this.tail)
    return this.packedTail
  }

  /** How many chunks there are, the tail counted when it holds rows. */
  private get chunkCount(): number {
    return this.chunks.length + (this.tail.length > 0 ? 1 : 0)
  }

  /** One row's lowercase text (a slice of its chunk: no copy of the characters). */
  text(position: number): string {
    const chunk = Math.floor(position / this.chunkRows)
    const { text, starts } = this.chunkAt(chunk)
    const row = position - chunk * this.chunkRows
    return text.slice(starts[row], (starts[row + 1] as number) - ROW_SEPARATOR.length)
  }

  /** Whether the row's text holds every term. */
  holds(position: number, terms: readonly string[]): boolean {
    const text = this.text(position)
    for (const term of terms) if (!text.includes(term)) return false
    return true
  }

  /**
   * Writes the positions of the rows in [from, to) whose text holds every term to `into` from
   * `count` on, in data order; returns the new count. The longest term is looked for through
   * whole chunks, the others only in the rows it was found in.
   */
  rowsHolding(terms: readonly string[], from: number, to: number, into: Uint32Array, count: number): number {
    let needle = terms[0] ?? ''
    for (const term of terms) if (term.length > needle.length) needle = term
    let found = count
    const end = Math.min(to, this.length)
    for (let chunk = Math.floor(from / this.chunkRows); chunk < this.chunkCount && chunk * this.chunkRows < end; chunk++) {
      const base = chunk * this.chunkRows
      found = this.chunkRowsHolding(chunk, needle, terms, Math.max(from, base) - base, Math.min(end, base + this.chunkRows) - base, into, found)
    }
    return found
  }

  private chunkRowsHolding(chunk: number, needle: string, terms: readonly string[], first: number, end: number, into: Uint32Array, count: number): number {
    const { text, starts } = this.chunkAt(chunk)
    const base = chunk * this.chunkRows
    const limit = starts[end] as number
    let found = count
    let at = starts[first] as number
    let low = first
    while (at < limit) {
      const hit = text.indexOf(needle, at)
      if (hit === -1 || hit >= limit) break
      // The row the hit starts in: the last row starting at or before it. Hits only move forward, so
      // the row does too: stepping on costs a chunk's rows at most per search, where a binary search
      // per hit cost eleven steps for each of up to 100,000 hits (a one-letter query).
      while ((starts[low + 1] as number) <= hit) low++
      const rowEnd = (starts[low + 1] as number) - ROW_SEPARATOR.length
      if (hit + needle.length <= rowEnd && (terms.length === 1 || this.holds(base + low, terms))) into[found++] = base + low
      at = starts[low + 1] as number
      low++
    }
    return found
  }
}
