import { defineStore } from 'pinia'
import { ref } from 'vue'
import { HOME_SECTION, type SectionId } from '../shell/sections'

export type { SectionId }

/** Which navigation a landing was asked after: a later one (the user's) wins over the landing. */
export type NavigationMark = number

export const useNavigationStore = defineStore('navigation', () => {
  const section = ref<SectionId>(HOME_SECTION)
  /** Set when a screen asks the connections view to open its "new connection" form on arrival. */
  const newConnectionRequested = ref(false)
  /** Counts every navigation, so a landing that waited (a workspace opening) can tell whether the user moved meanwhile. */
  let moves = 0

  function open(next: SectionId): void {
    moves += 1
    section.value = next
  }

  function addConnection(): void {
    moves += 1
    newConnectionRequested.value = true
    section.value = 'connections'
  }

  /** Taken before slow work that ends in `land`. */
  function mark(): NavigationMark {
    return moves
  }

  /**
   * The app's default landing after slow work (the demo opening, a connection chosen): only when
   * nobody navigated since `since`. A user's click on the rail meanwhile always wins.
   */
  function land(next: SectionId, since: NavigationMark): boolean {
    if (moves !== since) return false
    open(next)
    return true
  }

  return { section, newConnectionRequested, open, addConnection, mark, land }
})
