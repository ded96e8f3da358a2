import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Profile, ProfileInput } from '@contract'
import { api, unwrap } from '../api/bridge'

/** Connection profiles as main reports them: never a secret, only whether one is stored. */
export const useProfilesStore = defineStore('profiles', () => {
  const profiles = ref<Profile[]>([])
  const loaded = ref(false)
  const loadError = ref<string | null>(null)

  const sorted = computed(() => [...profiles.value].sort((left, right) => left.name.localeCompare(right.name)))

  async function load(): Promise<void> {
    try {
      profiles.value = await unwrap(api().profiles.list({}))
      loadError.value = null
    } catch (error) {
      loadError.value = (error as Error).message
    } finally {
      loaded.value = true
    }
  }

  function replace(profile: Profile): Profile {
    const index = profiles.value.findIndex((existing) => existing.id === profile.id)
    if (index >= 0) profiles.value.splice(index, 1, profile)
    else profiles.value.push(profile)
    return profile
  }

  async function create(input: ProfileInput): Promise<Profile> {
    return replace(await unwrap(api().profiles.create(input)))
  }

  async function update(id: string, input: ProfileInput): Promise<Profile> {
    return replace(await unwrap(api().profiles.update({ id, profile: input })))
  }

  async function duplicate(id: string): Promise<Profile> {
    return replace(await unwrap(api().profiles.duplicate({ id })))
  }

  async function remove(id: string): Promise<void> {
    await unwrap(api().profiles.delete({ id }))
    profiles.value = profiles.value.filter((profile) => profile.id !== id)
  }

  function byId(id: string): Profile | undefined {
    return profiles.value.find((profile) => profile.id === id)
  }

  return { profiles, sorted, loaded, loadError, load, create, update, duplicate, remove, byId }
})
