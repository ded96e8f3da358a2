import { computed } from 'vue'
import { useProfilesStore } from '../stores/profiles'
import { DEMO_PROFILE_ID } from '../stores/workspace'

/** The connections a schedule or a board can run on, by name (never an address), the demo first; and a name by id. */
export function useConnectionOptions() {
  const profiles = useProfilesStore()
  const options = computed(() => [
    { label: 'Demo workspace', value: DEMO_PROFILE_ID },
    ...profiles.sorted.filter((profile) => !profile.isDemo).map((profile) => ({ label: profile.name, value: profile.id })),
  ])
  const nameOf = (profileId: string): string => options.value.find((option) => option.value === profileId)?.label ?? 'a deleted connection'
  return { options, nameOf }
}
