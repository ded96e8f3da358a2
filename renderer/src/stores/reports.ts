import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { ChannelResult, ReportDefinition, ReportInfoView, ResolvedRange, TimeSeriesView } from '@contract'
import { api, toApiError, unwrap, type ApiError } from '../api/bridge'
import { adaptDefinition, plainDefinition } from '../domain/reports/definition'
import { errorField, type BuilderField } from '../domain/reports/errors'
import { patchInPlace } from '../lib/patchInPlace'
import { sameAnswer } from '../lib/sameAnswer'
import { useAudienceRun } from './reportsAudience'
import { useChartRun } from './reportsChart'
import { useWorkspaceStore } from './workspace'

/** The result tabs: the chart (with its series table), the pivot of the chart's result, the audience. */
export type ReportsTab = 'chart' | 'pivot' | 'audience'
export type KnownReport = ChannelResult<'reports:known'>[number]

/** The platform's offsets are whole hours; anything else is not sent as the report's zone. */
const reportOffset = (info: ReportInfoView | null): number | null => {
  const zone = info?.timezone
  return typeof zone === 'number' && Number.isInteger(zone) && zone >= -12 && zone <= 12 ? zone : null
}

/**
 * The report builder: which report is open (and its `info`, from main's cache when offline), the
 * definition being edited, and the last chart and audience runs. All work happens in main; this
 * store only sends definitions, keeps request ids to cancel by, and keeps main's errors.
 */
export const useReportsStore = defineStore('reports', () => {
  const workspace = useWorkspaceStore()
  const profileId = computed(() => workspace.activeProfileId)

  const infos = ref<Record<string, ReportInfoView>>({})
  const target = ref<{ project: string; report: string } | null>(null)
  const infoLoading = ref(false)
  const infoError = shallowRef<ApiError | null>(null)
  const known = ref<KnownReport[]>([])
  const definition = ref<ReportDefinition | null>(null)
  const tab = ref<ReportsTab>('chart')

  const resolved = ref<ResolvedRange | null>(null)
  const resolveError = shallowRef<ApiError | null>(null)
  let resolveSequence = 0

  /** The preset the builder came from, sent with runs so main keeps their results under it (null: ad hoc). */
  const preset = ref<string | null>(null)

  const infoKey = (profile: string, project: string, report: string): string => `${profile}\u0000${project}\u0000${report}`
  const info = computed<ReportInfoView | null>(() => {
    if (!profileId.value || !target.value) return null
    return infos.value[infoKey(profileId.value, target.value.project, target.value.report)] ?? null
  })
  /** The active profile's default project and report (the demo has `demo` / `supply`). */
  const defaultTarget = computed(() => {
    const profile = workspace.active
    return profile?.defaultProject && profile.defaultSlicer ? { project: profile.defaultProject, report: profile.defaultSlicer } : null
  })

  const dateError = computed(() => resolveError.value?.message ?? null)
  const sources = { definition, profileId, preset, dateError }
  const { chartRun, presetRun, result, chartError, stale, chartBlocked, chartAsOf, pointBudget, setPointBudget, run, showKept, clearChart, chartCall } =
    useChartRun(sources)
  const { audienceRun, audienceResult, audienceError, audienceBlocked, runAudience, clearAudience, audienceCall } = useAudienceRun(sources)
  const calls = { chart: chartCall, audience: audienceCall }

  function reset(): void {
    target.value = null
    definition.value = null
    known.value = []
    infoError.value = null
    resolved.value = null
    resolveError.value = null
    clearChart()
    clearAudience()
    // Let go, not cancelled: the runs' answers are dropped, their history entries stay as main ends them.
    chartCall.forget()
    audienceCall.forget()
    preset.value = null
  }
  watch(profileId, reset)

  async function loadKnown(): Promise<void> {
    if (!profileId.value) return
    try {
      known.value = await unwrap(api().reports.known({ profileId: profileId.value }))
    } catch {
      // The picker still offers the profile's default and free entry.
      known.value = []
    }
  }

  /** The info asked for ahead of the next open() (prefetchInfo), which takes it instead of asking again. */
  let prefetched: { key: string; request: Promise<ReportInfoView> } | null = null

  /**
   * Asks main for a report's info ahead of open() (a preset reads its kept chart meanwhile), so
   * the two waits overlap; the next open() of that report takes this answer, and reports any failure itself.
   */
  function prefetchInfo(project: string, report: string): void {
    const profile = profileId.value
    if (!profile) return
    const request = unwrap(api().reports.info({ profileId: profile, project, report }))
    request.catch(() => undefined)
    prefetched = { key: infoKey(profile, project, report), request }
  }

  /** Opens a report: its `info` comes from main (the platform, or the copy on disk when offline). */
  async function open(project: string, report: string, refresh = false): Promise<boolean> {
    const profile = profileId.value
    if (!profile) return false
    infoLoading.value = true
    infoError.value = null
    try {
      const early = !refresh && prefetched?.key === infoKey(profile, project, report) ? prefetched.request : null
      prefetched = null
      const value = await (early ?? unwrap(api().reports.info({ profileId: profile, project, report, ...(refresh ? { refresh } : {}) })))
      if (profileId.value !== profile) return false
      const key = infoKey(profile, value.project, value.report)
      // The same description again (a preset of the open report, the builder reopened): the object
      // the builder renders from stays, so its pickers do not all render again for nothing.
      if (!sameAnswer(infos.value[key], value)) infos.value = { ...infos.value, [key]: value }
      const changed = target.value?.project !== value.project || target.value.report !== value.report
      target.value = { project: value.project, report: value.report }
      definition.value = adaptDefinition(definition.value, value)
      if (changed) {
        result.value = null
        chartError.value = null
        clearAudience()
      }
      void loadKnown()
      return true
    } catch (error) {
      infoError.value = toApiError(error)
      return false
    } finally {
      infoLoading.value = false
    }
  }

  /** On arrival: the open report stays; else the profile's default, else the report opened last. */
  async function start(): Promise<void> {
    if (!profileId.value || target.value) return
    await loadKnown()
    const first = defaultTarget.value ?? known.value[0] ?? null
    if (first) await open(first.project, first.report)
  }

  async function resolveDates(): Promise<void> {
    const current = definition.value
    if (!current) return
    const sequence = ++resolveSequence
    try {
      const value = await unwrap(
        api().reports.resolveDates({
          start: current.dates.start,
          end: current.dates.end,
          timezone: current.timezone,
          reportTimezone: reportOffset(info.value),
        }),
      )
      if (sequence !== resolveSequence) return
      resolved.value = value
      resolveError.value = null
    } catch (error) {
      if (sequence !== resolveSequence) return
      resolveError.value = toApiError(error)
    }
  }

  /** Asks main to stop; the run's own call then ends with a `cancelled` error. */
  async function cancel(which: 'chart' | 'audience'): Promise<void> {
    const failure = await calls[which].cancel()
    if (!failure) return
    if (which === 'chart') chartError.value = failure
    else audienceError.value = failure
  }

  /** Main's sentence for a builder field, when the last error named it. */
  function fieldError(field: BuilderField): string | null {
    const candidates: (ApiError | null)[] = [
      field === 'project' || field === 'report' ? infoError.value : null,
      resolveError.value,
      tab.value === 'audience' ? audienceError.value : chartError.value,
    ]
    for (const error of candidates) {
      if (error && errorField(error.details) === field) return error.message
    }
    return null
  }

  /**
   * Puts a saved definition in the builder (a preset, a pasted request, a history entry) with
   * the report's `info` loaded, and the result kept from an earlier run if there is one. Runs
   * of the definition it replaces are cancelled: their answers would not be this one's.
   */
  async function load(next: ReportDefinition, from: string | null, kept: { ranAt: string; result: TimeSeriesView } | null = null): Promise<boolean> {
    if (!(await open(next.project, next.report))) return false
    // Main cancels them as Cancel would (their history entries say cancelled), and their answers,
    // even one arriving after the next run's, are dropped and never shown.
    chartCall.abandon()
    audienceCall.abandon()
    const plain = plainDefinition(next)
    // Patched, not replaced: only the builder fields whose values differ render again.
    if (definition.value) patchInPlace(definition.value as unknown as Record<string, unknown>, plain as unknown as Record<string, unknown>)
    else definition.value = plain
    preset.value = from
    showKept(next, kept)
    clearAudience()
    return true
  }

  /** The lines the user switched off in the legend; none left off is "Show all", kept so a chart of many lines draws them all. */
  function setHidden(keys: readonly string[]): void {
    if (!definition.value) return
    definition.value.chart.hidden = [...new Set(keys)]
    if (keys.length === 0) definition.value.chart.allLines = true
    else delete definition.value.chart.allLines
  }

  return {
    profileId,
    infos,
    target,
    info,
    infoLoading,
    infoError,
    known,
    definition,
    tab,
    defaultTarget,
    resolved,
    resolveError,
    dateError,
    chartRun,
    presetRun,
    result,
    chartError,
    stale,
    audienceRun,
    audienceResult,
    audienceError,
    chartBlocked,
    audienceBlocked,
    preset,
    chartAsOf,
    pointBudget,
    setPointBudget,
    prefetchInfo,
    reset,
    loadKnown,
    open,
    load,
    start,
    resolveDates,
    run,
    runAudience,
    cancel,
    fieldError,
    setHidden,
  }
})
