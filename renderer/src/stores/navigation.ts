import { defineStore } from 'pinia'
import { ref } from 'vue'
import { HOME_SECTION, type SectionId } from '../shell/sections'

export type { SectionId }

export const useNavigationStore = defineStore('navigation', () => {
  const section = ref<SectionId>(HOME_SECTION)
  /** Set when a screen asks the connections view to open its "new connection" form on arrival. */
  const newConnectionRequested = ref(false)

  function open(next: SectionId): void {
    section.value = next
  }

  function addConnection(): void {
    newConnectionRequested.value = true
    section.value = 'connections'
  }

  return { section, newConnectionRequested, open, addConnection }
})
