import type { ErrorCode, ReportDefinition, ReportInfoView } from '@contract'
import { AppError } from '../errors'
import type { ReportingClient } from '../reporting/client'
import { TIME_GRANULARITIES } from './dates'
import { normaliseInfo } from './info'
import type { InfoStore, StoredInfo } from './info-store'

/** A copy fetched this recently is answered without asking again (reopening the builder, switching tabs). */
const REUSE_FOR_MS = 10 * 60_000

/** Failures that say nothing about the report, only that the platform could not be asked now. */
/**
 * When the builder may work from the copy on disk: the platform cannot be reached, or it cannot
 * be signed in to from here right now (no secret stored, the keychain locked). The reason is
 * shown with the copy; a run still needs the platform and says so itself.
 */
const unreachable = new Set<ErrorCode>(['network', 'timeout', 'server', 'throttled', 'bad_response', 'auth', 'keychain_unavailable'])

export interface InfoCache {
  /** From the platform (kept on disk); when it cannot be reached, the copy on disk with `offlineReason`. */
  get(profileId: string, project: string, report: string, options: { refresh?: boolean; signal: AbortSignal }): Promise<ReportInfoView>
  /** Pairs with a copy on disk, newest first. */
  known(profileId: string): Promise<Array<{ project: string; report: string; fetchedAt: string }>>
  /**
   * The description a run plans with: the copy at hand when it knows every field the definition
   * names, else a fresh one (a metric created since the copy was saved).
   */
  forDefinition(profileId: string, definition: ReportDefinition, signal: AbortSignal): Promise<ReportInfoView>
}

export interface InfoCacheOptions {
  reportingOf(profileId: string): Promise<ReportingClient>
  store: InfoStore
  now: () => Date
}

function namesEveryField(info: ReportInfoView, definition: ReportDefinition): boolean {
  const keys = new Set(info.keyFields.map((field) => field.name))
  const metrics = new Set(info.dataFields.map((field) => field.name))
  const granularity = definition.granularity
  const timeGranularity = granularity === 'auto' || TIME_GRANULARITIES.some((name) => name === granularity || `granularity_${name}` === granularity)
  return (
    (timeGranularity || keys.has(granularity)) &&
    definition.metrics.every((metric) => metrics.has(metric)) &&
    (definition.lines.mode !== 'top' || definition.lines.by === null || metrics.has(definition.lines.by)) &&
    definition.metricConditions.every((condition) => metrics.has(condition.metric)) &&
    [...definition.breakdown, ...definition.audience.breakdown, ...definition.filters.map((filter) => filter.key)].every((key) => keys.has(key))
  )
}

export function createInfoCache({ reportingOf, store, now }: InfoCacheOptions): InfoCache {
  const fetched = new Map<string, StoredInfo>()
  const keyOf = (profileId: string, project: string, report: string) => JSON.stringify([profileId, project, report])

  async function fetchFresh(profileId: string, project: string, report: string, signal: AbortSignal): Promise<StoredInfo> {
    const reporting = await reportingOf(profileId)
    const info = await reporting.info({ project_name: project, slicer_name: report }, { signal })
    const entry: StoredInfo = { project, report, fetchedAt: now().toISOString(), info }
    fetched.set(keyOf(profileId, project, report), entry)
    // The answer is good even if the copy cannot be written; only offline use would miss it.
    await store.write(profileId, entry).catch(() => undefined)
    return entry
  }

  async function copyAtHand(profileId: string, project: string, report: string): Promise<StoredInfo | null> {
    return fetched.get(keyOf(profileId, project, report)) ?? (await store.read(profileId, project, report))
  }

  const present = (entry: StoredInfo, offlineReason: string | null) => normaliseInfo(entry.info, entry.project, entry.report, entry.fetchedAt, offlineReason)

  async function get(
    profileId: string,
    project: string,
    report: string,
    { refresh = false, signal }: { refresh?: boolean; signal: AbortSignal },
  ): Promise<ReportInfoView> {
    const recent = fetched.get(keyOf(profileId, project, report))
    if (!refresh && recent !== undefined && now().getTime() - Date.parse(recent.fetchedAt) < REUSE_FOR_MS) return present(recent, null)
    try {
      return present(await fetchFresh(profileId, project, report, signal), null)
    } catch (error) {
      if (!(error instanceof AppError) || !unreachable.has(error.code) || signal.aborted) throw error
      const copy = await copyAtHand(profileId, project, report)
      if (copy === null) throw error
      return present(copy, `${error.message} Showing the description saved ${copy.fetchedAt.slice(0, 16).replace('T', ' ')} UTC.`)
    }
  }

  return {
    get,
    async known(profileId) {
      const entries = await store.list(profileId)
      return entries.sort((left, right) => (left.fetchedAt < right.fetchedAt ? 1 : left.fetchedAt > right.fetchedAt ? -1 : 0))
    },
    async forDefinition(profileId, definition, signal) {
      const copy = await copyAtHand(profileId, definition.project, definition.report)
      if (copy !== null) {
        const view = present(copy, null)
        if (namesEveryField(view, definition)) return view
      }
      return get(profileId, definition.project, definition.report, { refresh: true, signal })
    },
  }
}
