/**
 * Fuzzy matching for the command palette: the typed letters must appear in the text in order
 * (not together), and the best-placed occurrence wins, so "gtr" finds "Go to Reports" and
 * lights up its G, t and R rather than the first t and r it meets.
 */

export interface FuzzyMatch {
  /** Higher is better; only comparable between matches of the same query. */
  score: number
  /** Indexes of the text's characters that matched, ascending (for highlighting). */
  positions: number[]
}

const WORD_START = 10
const FIRST_CHARACTER = 4
const CONSECUTIVE = 6
const MATCHED = 1
/** Per skipped character: a tight match beats a scattered one, but weakly, so word starts dominate. */
const GAP = 0.05

function isWordStart(text: string, index: number): boolean {
  if (index === 0) return true
  const before = text.charAt(index - 1)
  const here = text.charAt(index)
  if (/[\s\-_/.:,()[\]“”"'…]/.test(before)) return true
  // camelCase and digits after letters count as new words too.
  return (before === before.toLowerCase() && here !== here.toLowerCase()) || (/\d/.test(here) && !/\d/.test(before))
}

/**
 * Matches `query` against `text`, case-insensitively, ignoring spaces in the query. null when
 * the letters are not all there in order; an empty query matches everything with score 0.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const wanted = query.replace(/\s+/g, '').toLowerCase()
  if (wanted.length === 0) return { score: 0, positions: [] }
  const haystack = text.toLowerCase()
  const rows = wanted.length
  const columns = haystack.length
  if (rows > columns) return null

  // best[i * columns + j]: the best score with query letter i placed on text position j (NaN: impossible).
  const best = new Array<number>(rows * columns).fill(Number.NaN)
  const from = new Array<number>(rows * columns).fill(-1)
  const scoreAt = (i: number, j: number): number => best[i * columns + j] ?? Number.NaN
  for (let i = 0; i < rows; i++) {
    for (let j = i; j < columns; j++) {
      if (haystack.charAt(j) !== wanted.charAt(i)) continue
      const own = MATCHED + (isWordStart(text, j) ? WORD_START : 0) + (j === 0 ? FIRST_CHARACTER : 0)
      if (i === 0) {
        best[j] = own - j * GAP
        continue
      }
      let top = Number.NaN
      let topFrom = -1
      for (let k = i - 1; k < j; k++) {
        const before = scoreAt(i - 1, k)
        if (Number.isNaN(before)) continue
        const candidate = before + (k === j - 1 ? CONSECUTIVE : -(j - k - 1) * GAP)
        if (Number.isNaN(top) || candidate > top) {
          top = candidate
          topFrom = k
        }
      }
      if (Number.isNaN(top)) continue
      best[i * columns + j] = top + own
      from[i * columns + j] = topFrom
    }
  }

  let end = -1
  for (let j = 0; j < columns; j++) {
    const score = scoreAt(rows - 1, j)
    if (!Number.isNaN(score) && (end === -1 || score > scoreAt(rows - 1, end))) end = j
  }
  if (end === -1) return null
  const positions: number[] = []
  for (let i = rows - 1, j = end; i >= 0; j = from[i * columns + j] ?? -1, i--) positions.unshift(j)
  return { score: scoreAt(rows - 1, end), positions }
}

export interface TextPart {
  text: string
  matched: boolean
}

/** The text cut into runs of matched and unmatched characters, for `<mark>`-ing the matched ones. */
export function highlightParts(text: string, positions: readonly number[]): TextPart[] {
  const hits = new Set(positions)
  const parts: TextPart[] = []
  for (let index = 0; index < text.length; index++) {
    const matched = hits.has(index)
    const last = parts.at(-1)
    if (last && last.matched === matched) last.text += text.charAt(index)
    else parts.push({ text: text.charAt(index), matched })
  }
  return parts
}

/**
 * Keeps the items whose text matches, best first; ties keep the given order. `bonusOf` lifts
 * some items (the palette's recently used ones) over equally good or slightly better matches.
 * An empty query keeps every item, in the given order.
 */
export function fuzzyFilter<T>(
  query: string,
  items: readonly T[],
  textOf: (item: T) => string,
  bonusOf: (item: T) => number = () => 0,
): Array<{ item: T; match: FuzzyMatch }> {
  const found: Array<{ item: T; match: FuzzyMatch; rank: number; order: number }> = []
  items.forEach((item, order) => {
    const match = fuzzyMatch(query, textOf(item))
    if (match) found.push({ item, match, rank: match.positions.length === 0 ? 0 : match.score + bonusOf(item), order })
  })
  found.sort((left, right) => right.rank - left.rank || left.order - right.order)
  return found.map(({ item, match }) => ({ item, match }))
}
