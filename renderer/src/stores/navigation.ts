import { defineStore } from 'pinia'
import { ref } from 'vue'

/** The sections the rail offers. Only sections that work are listed. */
export type Section = 'connections'

export const useNavigationStore = defineStore('navigation', () => {
  const section = ref<Section>('connections')
  function open(next: Section): void {
    section.value = next
  }
  return { section, open }
})
