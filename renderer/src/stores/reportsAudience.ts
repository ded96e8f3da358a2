import { computed, shallowRef, type Ref } from 'vue'
import type { AudienceView, ReportDefinition } from '@contract'
import { api, unwrap, type ApiError } from '../api/bridge'
import { useLatestCall } from '../composables/useLatestCall'
import { audienceBlocker, plainDefinition } from '../domain/reports/definition'

/** What the audience run reads from the reports store: the builder's definition and where to send it. */
export interface AudienceSources {
  definition: Readonly<Ref<ReportDefinition | null>>
  profileId: Readonly<Ref<string | null>>
  preset: Readonly<Ref<string | null>>
  dateError: Readonly<Ref<string | null>>
}

/**
 * The reports store's audience tab: the last unique-user count, its error and the run in flight.
 * Called inside the store's setup, so its members are the store's own (`store.audienceResult`…).
 */
export function useAudienceRun({ definition, profileId, preset, dateError }: AudienceSources) {
  const audienceResult = shallowRef<AudienceView | null>(null)
  const audienceError = shallowRef<ApiError | null>(null)
  const audienceBlocked = computed(() => (definition.value ? audienceBlocker(definition.value, dateError.value) : 'Open a report first.'))
  const call = useLatestCall(
    (requestId, profile: string, sent: ReportDefinition, from: string | null) =>
      unwrap(api().reports.audience({ profileId: profile, definition: sent, requestId, preset: from })),
    {
      label: 'audience',
      onValue: (value) => {
        audienceResult.value = value
      },
      onError: (error) => {
        audienceError.value = error
      },
    },
  )

  /** Counts the builder's audience; a run already in flight is left to finish (Cancel stops it). */
  async function runAudience(): Promise<void> {
    const current = definition.value
    const profile = profileId.value
    if (!current || !profile || audienceBlocked.value !== null || call.running.value) return
    audienceError.value = null
    await call.run(profile, plainDefinition(current), preset.value)
  }

  /** The shown count and error go (another report, another definition). */
  function clearAudience(): void {
    audienceResult.value = null
    audienceError.value = null
  }

  return { audienceRun: call.running, audienceResult, audienceError, audienceBlocked, runAudience, clearAudience, audienceCall: call }
}
