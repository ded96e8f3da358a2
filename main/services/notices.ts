import { randomUUID } from 'node:crypto'
import type { Notice } from '@contract'

/**
 * Things main must tell the user about that did not come from a request they made:
 * a corrupt file moved aside at start, a keychain entry that could not be removed.
 * Kept until dismissed, and pushed to the window as they happen.
 */
export interface Notices {
  add(notice: Omit<Notice, 'id'>): Notice
  list(): Notice[]
  dismiss(id: string): void
  subscribe(listener: (notice: Notice) => void): () => void
}

export function createNotices(newId: () => string = randomUUID): Notices {
  const items: Notice[] = []
  const listeners = new Set<(notice: Notice) => void>()
  return {
    add(notice) {
      const full: Notice = { id: newId(), ...notice }
      items.push(full)
      for (const listener of listeners) listener(full)
      return full
    },
    list: () => [...items],
    dismiss(id) {
      const index = items.findIndex((item) => item.id === id)
      if (index >= 0) items.splice(index, 1)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
