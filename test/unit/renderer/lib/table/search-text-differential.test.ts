import { describe, expect, it } from 'vitest'
import { TableIndex, applyView, type TableColumn } from '../../../../../renderer/src/lib/table'
import { SearchText } from '../../../../../renderer/src/lib/table/SearchText'

/**
 * The search text is lowercased a chunk at a time (and the rows after the last chunk as one
 * provisional chunk): over random rows and random queries it must find exactly the rows that
 * lowercasing each row on its own and testing it finds (what the search did before), whatever
 * the chunk size, wherever a range starts and ends, and with rows added between searches. The
 * characters include ones whose lowercase depends on their neighbours (Σ) or is longer than
 * themselves (İ), which the whole-chunk lowercasing must not get wrong.
 */

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function generator(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296
  }
}

const ALPHABET = ['a', 'B', 'c', 'G', 'o', 'L', 'd', 'E', 'n', '4', '2', '1', '7', '9', ' ', '-', '.', 'Σ', 'σ', 'ς', 'İ', 'i', 'Ä', 'ä', 'ß', 'ẞ', 'Ω']

function word(random: () => number, longest: number): string {
  let text = ''
  const length = Math.floor(random() * longest)
  for (let step = 0; step < length; step++) text += ALPHABET[Math.floor(random() * ALPHABET.length)] as string
  return text
}

/** What the search did before: each row's text lowercased on its own, every term looked for in it. */
function oneByOne(rows: readonly string[], terms: readonly string[], from: number, to: number): number[] {
  const found: number[] = []
  for (let position = from; position < to; position++) {
    const text = (rows[position] as string).toLowerCase()
    if (terms.every((term) => text.includes(term))) found.push(position)
  }
  return found
}

function queryTerms(random: () => number): string[] {
  const count = 1 + Math.floor(random() * 2)
  const terms: string[] = []
  for (let step = 0; step < count; step++) {
    const term = word(random, 4).toLowerCase().trim()
    if (term !== '') terms.push(term)
  }
  return terms.length > 0 ? terms : ['a']
}

describe('search text lowercased a chunk at a time', () => {
  it('finds exactly the rows a row-by-row search finds, over random rows, ranges, chunk sizes and queries', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = generator(seed)
      const chunkRows = 1 + Math.floor(random() * 9)
      const text = new SearchText(chunkRows)
      const rows: string[] = []
      for (let round = 0; round < 6; round++) {
        // Rows added between searches: some fill chunks, some stay in the tail.
        const added = Math.floor(random() * 3 * chunkRows)
        for (let step = 0; step < added; step++) {
          const row = `${word(random, 10)}\u0001${word(random, 6)}\u0001`
          rows.push(row)
          text.push(row)
        }
        expect(text.length).toBe(rows.length)
        for (let position = 0; position < rows.length; position++) expect(text.text(position)).toBe((rows[position] as string).toLowerCase())
        for (let query = 0; query < 12; query++) {
          const terms = queryTerms(random)
          const from = Math.floor(random() * (rows.length + 1))
          const to = from + Math.floor(random() * (rows.length - from + 1))
          const into = new Uint32Array(rows.length + 1)
          const count = text.rowsHolding(terms, from, to, into, 0)
          expect([...into.slice(0, count)], `seed ${seed}, terms ${JSON.stringify(terms)}, rows ${from}..${to}`).toEqual(oneByOne(rows, terms, from, to))
        }
      }
    }
  })

  it('gives a table the same rows a plain filter gives, sorted or not, as the rows grow', () => {
    interface Row {
      id: number
      name: string
    }
    const columns: TableColumn<Row>[] = [
      { key: 'id', title: 'ID', kind: 'number', text: (row) => String(row.id), sortValue: (row) => row.id },
      { key: 'name', title: 'Name', kind: 'text', text: (row) => row.name },
    ]
    const random = generator(7)
    const all: Row[] = Array.from({ length: 3_000 }, (_, position) => ({ id: position + 1, name: `${word(random, 8)} ${word(random, 8)}` }))
    const plain = (rows: readonly Row[], query: string): number[] => {
      const terms = query.trim().toLowerCase().split(/\s+/)
      return rows.filter((row) => terms.every((term) => `${row.id}\u0001${row.name}\u0001`.toLowerCase().includes(term))).map((row) => row.id)
    }
    const index = new TableIndex<Row>(64)
    for (let end = 500; end <= all.length; end += 500) {
      const rows = all.slice(0, end)
      index.update(rows, columns)
      for (let query = 0; query < 20; query++) {
        const text = queryTerms(random).join(' ')
        expect(applyView(index, { query: text, filters: {}, sort: null }).map((row) => row.id)).toEqual(plain(rows, text))
        const descending = applyView(index, { query: text, filters: {}, sort: { key: 'id', direction: 'desc' } }).map((row) => row.id)
        expect(descending).toEqual(plain(rows, text).reverse())
      }
    }
  })
})
