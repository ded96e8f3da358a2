/**
 * The lowercase search text of every row, kept as a few large strings (chunks of `chunkRows`
 * rows joined by a separator) plus each chunk's table of row offsets, instead of one string per
 * row: 100,000 small strings promoted to the old generation right after a list opens made the
 * garbage collector copy and mark 100,000 objects during the first keystrokes; 50 big strings
 * cost it next to nothing. A search runs `indexOf` over a chunk and maps each hit back to its row
 * by a binary search on the offsets.
 *
 * Rows are added at the end only. The last rows (fewer than a chunk) stay separate strings until
 * a chunk is full, so a list still arriving never joins the same rows twice.
 */

/** Between rows in a chunk: typed text never holds it, so no hit spans two rows (bounds are checked anyway). */
const ROW_SEPARATOR = '\u0000'
export const CHUNK_ROWS = 2_000

export class SearchText {
  private chunks: string[] = []
  /** Per chunk: where each row starts, and one more entry: where a row after the last would start. */
  private offsets: Uint32Array[] = []
  private tail: string[] = []

  constructor(private readonly chunkRows: number = CHUNK_ROWS) {}

  /** How many rows have their text. */
  get length(): number {
    return this.chunks.length * this.chunkRows + this.tail.length
  }

  clear(): void {
    this.chunks = []
    this.offsets = []
    this.tail = []
  }

  /** Adds the next row's text (already lowercase). */
  push(text: string): void {
    this.tail.push(text)
    if (this.tail.length >= this.chunkRows) this.seal()
  }

  private seal(): void {
    const starts = new Uint32Array(this.tail.length + 1)
    let at = 0
    for (let row = 0; row < this.tail.length; row++) {
      starts[row] = at
      at += (this.tail[row] as string).length + ROW_SEPARATOR.length
    }
    starts[this.tail.length] = at
    this.chunks.push(this.tail.join(ROW_SEPARATOR))
    this.offsets.push(starts)
    this.tail = []
  }

  /** One row's text (a slice of its chunk: no copy of the characters). */
  text(position: number): string {
    const chunk = Math.floor(position / this.chunkRows)
    if (chunk >= this.chunks.length) return this.tail[position - this.chunks.length * this.chunkRows] as string
    const starts = this.offsets[chunk] as Uint32Array
    const row = position - chunk * this.chunkRows
    return (this.chunks[chunk] as string).slice(starts[row], (starts[row + 1] as number) - ROW_SEPARATOR.length)
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
    const sealed = this.chunks.length * this.chunkRows
    for (let chunk = Math.floor(from / this.chunkRows); chunk < this.chunks.length && chunk * this.chunkRows < to; chunk++) {
      const base = chunk * this.chunkRows
      found = this.chunkRowsHolding(chunk, needle, terms, Math.max(from, base) - base, Math.min(to, base + this.chunkRows) - base, into, found)
    }
    for (let position = Math.max(from, sealed); position < to; position++) if (this.holds(position, terms)) into[found++] = position
    return found
  }

  private chunkRowsHolding(chunk: number, needle: string, terms: readonly string[], first: number, end: number, into: Uint32Array, count: number): number {
    const text = this.chunks[chunk] as string
    const starts = this.offsets[chunk] as Uint32Array
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
