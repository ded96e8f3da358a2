import { computed, ref, shallowRef, type Ref } from 'vue'
import type { ReportDefinition, TimeSeriesView } from '@contract'
import { api, unwrap, type ApiError } from '../api/bridge'
import { useLatestCall } from '../composables/useLatestCall'
import { chartBlocker, plainDefinition } from '../domain/reports/definition'

/** What the chart run reads from the reports store: the builder's definition and where to send it. */
export interface ChartSources {
  definition: Readonly<Ref<ReportDefinition | null>>
  profileId: Readonly<Ref<string | null>>
  preset: Readonly<Ref<string | null>>
  dateError: Readonly<Ref<string | null>>
}

/** The part of a definition the chart's data depends on: hidden lines and the audience tab are not. */
const chartKey = (value: ReportDefinition): string => JSON.stringify({ ...value, chart: null, audience: null })

/**
 * The reports store's chart tab: the last result (run now or kept from an earlier run), its error,
 * the run in flight and the point budget. Called inside the store's setup, so its members are the store's own.
 */
export function useChartRun({ definition, profileId, preset, dateError }: ChartSources) {
  const result = shallowRef<TimeSeriesView | null>(null)
  const chartError = shallowRef<ApiError | null>(null)
  /** The definition the shown chart was run with, to say when the builder has moved on. */
  const ranWith = ref<string | null>(null)
  /** When the shown chart was kept from an earlier run (a preset opened offline); null once a run answers. */
  const chartAsOf = ref<string | null>(null)
  /**
   * Points per series the chart wants from main (pointBudget() of its width), known as soon as the
   * chart panel is laid out and kept current as it resizes: runs and kept results are cut to it.
   * undefined until the panel was first shown: main's default then.
   */
  const pointBudget = ref<number | undefined>(undefined)
  /** The preset whose run last answered, and a count of such runs (a run of the same preset again changes it too). */
  const presetRun = ref<{ preset: string; count: number } | null>(null)

  const chartBlocked = computed(() => (definition.value ? chartBlocker(definition.value, dateError.value) : 'Open a report first.'))
  const stale = computed(() => result.value !== null && definition.value !== null && ranWith.value !== chartKey(definition.value))

  const call = useLatestCall(
    (requestId, profile: string, sent: ReportDefinition) => {
      const budgeted = pointBudget.value === undefined ? {} : { pointBudget: pointBudget.value }
      return unwrap(api().reports.run({ profileId: profile, definition: sent, requestId, preset: preset.value, ...budgeted }))
    },
    {
      label: 'report',
      onValue: (value, _profile, sent) => {
        result.value = value
        ranWith.value = chartKey(sent)
        chartAsOf.value = null
        if (preset.value !== null) presetRun.value = { preset: preset.value, count: (presetRun.value?.count ?? 0) + 1 }
      },
      onError: (error) => {
        chartError.value = error
      },
    },
  )

  /** Within what main accepts; a panel being laid out can briefly measure almost nothing. */
  function setPointBudget(budget: number): void {
    pointBudget.value = Math.max(50, Math.min(20_000, Math.round(budget)))
  }

  /** Runs the chart; without a budget, with the one the chart panel last measured (a preset opening runs it too). */
  async function run(budget?: number): Promise<void> {
    const current = definition.value
    const profile = profileId.value
    if (!current || !profile || chartBlocked.value !== null || call.running.value) return
    chartError.value = null
    if (budget !== undefined) setPointBudget(budget)
    await call.run(profile, plainDefinition(current))
  }

  /** Shows the result kept from an earlier run of `next` (or none), as if that run had just answered. */
  function showKept(next: ReportDefinition, kept: { ranAt: string; result: TimeSeriesView } | null): void {
    result.value = kept?.result ?? null
    ranWith.value = kept ? chartKey(next) : null
    chartAsOf.value = kept?.ranAt ?? null
    chartError.value = null
  }

  /** No chart shown: another profile, nothing run yet. */
  function clearChart(): void {
    result.value = null
    ranWith.value = null
    chartAsOf.value = null
    chartError.value = null
  }

  return {
    chartRun: call.running,
    presetRun,
    result,
    chartError,
    stale,
    chartBlocked,
    chartAsOf,
    pointBudget,
    setPointBudget,
    run,
    showKept,
    clearChart,
    chartCall: call,
  }
}
