import { describe, expect, it } from 'vitest'
import { emptyListText } from '../../../../../renderer/src/domain/entities/emptyList'

const base = { label: 'Publishers', syncing: false, filtered: false, loaded: true, syncedAt: null }

describe('what an empty entity list says', () => {
  it('a kind never synced says so, and how to sync, rather than "No publishers yet"', () => {
    const text = emptyListText(base)
    expect(text).not.toMatch(/No publishers yet/)
    expect(text).toMatch(/^Never synced: this computer has no copy of publishers\./)
    expect(text).toMatch(/Try again/)
  })

  it('a kind synced and empty has none yet', () => {
    expect(emptyListText({ ...base, syncedAt: '2026-02-05T09:00:00.000Z' })).toBe('No publishers yet.')
  })

  it('loading, syncing and a search that hides every row say what they are', () => {
    expect(emptyListText({ ...base, loaded: false })).toBe('Loading…')
    expect(emptyListText({ ...base, syncing: true })).toBe('Loading publishers…')
    expect(emptyListText({ ...base, filtered: true, syncedAt: '2026-02-05T09:00:00.000Z' })).toBe('No rows match the search and filters.')
  })
})
