import { describe, expect, it } from 'vitest'
import { fuzzyFilter, fuzzyMatch, highlightParts } from '../../../../renderer/src/lib/fuzzy'

describe('fuzzyMatch', () => {
  it('needs every letter, in order, ignoring case and spaces in the query', () => {
    expect(fuzzyMatch('rprt', 'Go to Reports')).not.toBeNull()
    expect(fuzzyMatch('go rep', 'Go to Reports')).not.toBeNull()
    expect(fuzzyMatch('REPORTS', 'Go to Reports')).not.toBeNull()
    expect(fuzzyMatch('sg', 'Go to Reports')).toBeNull()
    expect(fuzzyMatch('reportsx', 'Go to Reports')).toBeNull()
  })

  it('matches everything with an empty query, highlighting nothing', () => {
    expect(fuzzyMatch('', 'Anything')).toEqual({ score: 0, positions: [] })
  })

  it('places letters on word starts rather than on the first occurrence', () => {
    // The first "t" and "r" of the text are inside "to" and "Reports"; the word starts G, t, R win.
    expect(fuzzyMatch('gtr', 'Go to Reports')?.positions).toEqual([0, 3, 6])
    expect(fuzzyMatch('tt', 'Toggle Light/Dark Theme')?.positions).toEqual([0, 18])
  })

  it('prefers letters that follow each other', () => {
    expect(fuzzyMatch('ent', 'New Entity')?.positions).toEqual([4, 5, 6])
  })

  it('ranks a word-start match above letters scattered inside words', () => {
    const words = fuzzyMatch('rep', 'Go to Reports')
    const scattered = fuzzyMatch('rep', 'Brand name repeat')
    const inside = fuzzyMatch('rep', 'Prepare')
    expect(words && inside && words.score > inside.score).toBe(true)
    expect(scattered && inside && scattered.score > inside.score).toBe(true)
  })
})

describe('highlightParts', () => {
  it('cuts the text into runs of matched and unmatched letters', () => {
    expect(highlightParts('Go to Reports', [0, 6, 7, 8])).toEqual([
      { text: 'G', matched: true },
      { text: 'o to ', matched: false },
      { text: 'Rep', matched: true },
      { text: 'orts', matched: false },
    ])
    expect(highlightParts('Save', [])).toEqual([{ text: 'Save', matched: false }])
  })
})

describe('fuzzyFilter', () => {
  const labels = ['Go to Entities', 'Go to Reports', 'Go to Connections', 'Run Report', 'Refresh']

  it('keeps the matching items, best first', () => {
    const found = fuzzyFilter('rep', labels, (label) => label).map(({ item }) => item)
    // Both start a word with "Rep"; the one nearer the start of its text goes first.
    expect(found).toEqual(['Run Report', 'Go to Reports'])
    expect(fuzzyFilter('conn', labels, (label) => label).map(({ item }) => item)).toEqual(['Go to Connections'])
  })

  it('keeps the given order for an empty query', () => {
    expect(fuzzyFilter('', labels, (label) => label).map(({ item }) => item)).toEqual(labels)
  })

  it('lifts items with a bonus (recently used) over equal matches', () => {
    const plain = fuzzyFilter('go', labels, (label) => label).map(({ item }) => item)
    expect(plain[0]).toBe('Go to Entities')
    const lifted = fuzzyFilter(
      'go',
      labels,
      (label) => label,
      (label) => (label === 'Go to Connections' ? 5 : 0),
    ).map(({ item }) => item)
    expect(lifted[0]).toBe('Go to Connections')
  })
})
