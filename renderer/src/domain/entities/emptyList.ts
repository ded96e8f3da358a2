/** What an entity list holds when it shows no rows. */
export interface EmptyListState {
  /** The kind's plural label, "Publishers". */
  label: string
  syncing: boolean
  /** A search or filter hides rows. */
  filtered: boolean
  /** The copy on this computer has been read. */
  loaded: boolean
  /** When the kind last synced with the platform; null: never. */
  syncedAt: string | null
}

/**
 * The sentence an empty list shows. A kind never synced has no copy here at all, which is not
 * "none yet": saying "No publishers yet" under an offline banner read as the platform having none.
 */
export function emptyListText(state: EmptyListState): string {
  const plural = state.label.toLowerCase()
  if (state.syncing) return `Loading ${plural}…`
  if (state.filtered) return 'No rows match the search and filters.'
  if (!state.loaded) return 'Loading…'
  if (state.syncedAt === null) return `Never synced: this computer has no copy of ${plural}. Press Try again above once you are back online.`
  return `No ${plural} yet.`
}
