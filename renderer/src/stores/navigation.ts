import { defineStore } from 'pinia'
import { ref } from 'vue'

/** The sections the rail offers. Only sections that work are listed. */
export type Section = 'entities' | 'reports' | 'connections'

export const useNavigationStore = defineStore('navigation', () => {
  const section = ref<Section>('entities')
  /** Set when a screen asks the connections view to open its "new connection" form on arrival. */
  const newConnectionRequested = ref(false)

  function open(next: Section): void {
    section.value = next
  }

  function addConnection(): void {
    newConnectionRequested.value = true
    section.value = 'connections'
  }

  return { section, newConnectionRequested, open, addConnection }
})
