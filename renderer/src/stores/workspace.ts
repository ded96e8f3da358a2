import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { DEMO_PROFILE_ID, type Profile } from '@contract'
import { api, unwrap } from '../api/bridge'

export { DEMO_PROFILE_ID }

/**
 * The connection the app is working with (a saved profile or the demo workspace). Main
 * remembers it across restarts; entity and report screens read `activeProfileId`.
 */
export const useWorkspaceStore = defineStore('workspace', () => {
  const active = ref<Profile | null>(null)
  const restored = ref(false)
  const activating = ref(false)
  const error = ref<string | null>(null)

  const activeProfileId = computed(() => active.value?.id ?? null)
  const isDemo = computed(() => active.value?.isDemo === true)

  async function activate(profileId: string): Promise<Profile | null> {
    activating.value = true
    error.value = null
    try {
      active.value = await unwrap(api().workspace.activate({ profileId }))
      return active.value
    } catch (caught) {
      error.value = (caught as Error).message
      return null
    } finally {
      activating.value = false
    }
  }

  /** Reopens what was active last time, if it still exists. */
  async function restore(): Promise<void> {
    try {
      const state = await unwrap(api().workspace.state({}))
      if (state.activeProfileId !== null) await activate(state.activeProfileId)
    } finally {
      restored.value = true
    }
  }

  /** The active profile was edited or deleted elsewhere in the app. */
  function refresh(profiles: Profile[]): void {
    if (active.value === null || active.value.isDemo) return
    active.value = profiles.find((profile) => profile.id === active.value?.id) ?? null
  }

  return { active, activeProfileId, isDemo, restored, activating, error, activate, restore, refresh }
})
