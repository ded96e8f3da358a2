import { describe, expect, it } from 'vitest'
import { SearchText } from '../../../../../renderer/src/lib/table/SearchText'

const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett']

/** The rows in [from, to) holding every term, by the chunked search and by testing each row's text. */
function both(text: SearchText, terms: string[], from = 0, to = words.length): { chunked: number[]; one: number[] } {
  const into = new Uint32Array(words.length)
  const count = text.rowsHolding(terms, from, to, into, 0)
  const one: number[] = []
  for (let position = from; position < to; position++) if (terms.every((term) => (words[position] as string).includes(term))) one.push(position)
  return { chunked: [...into.slice(0, count)], one }
}

describe('search text in chunks', () => {
  it('gives back each row as it was added, within chunks and after the last one', () => {
    const text = new SearchText(3)
    for (const word of words) text.push(word)
    expect(text.length).toBe(words.length)
    expect(words.map((_, position) => text.text(position))).toEqual(words)
  })

  it('finds the same rows as testing each row, over any range crossing the chunk edges', () => {
    const text = new SearchText(3)
    for (const word of words) text.push(word)
    for (const terms of [['a'], ['o'], ['l', 'e'], ['ot'], ['t', 'f'], ['zz'], ['ho', 'e']]) {
      for (const [from, to] of [
        [0, 10],
        [2, 7],
        [3, 6],
        [4, 5],
        [8, 10],
      ] as const) {
        const { chunked, one } = both(text, terms, from, to)
        expect(chunked).toEqual(one)
      }
    }
  })

  it('never matches across two rows, even with a term holding the separator', () => {
    const text = new SearchText(4)
    for (const word of words) text.push(word)
    expect(both(text, ['ab']).chunked).toEqual([])
    expect(both(text, ['a\u0000b']).chunked).toEqual([])
    expect(both(text, ['o\u0000c']).chunked).toEqual([])
  })
})
