import { performance } from 'node:perf_hooks'
import type { AudienceView, ReportDefinition, ReportInfoView, ResolvedRange, TimeSeriesView, TimezoneRule } from '@contract'
import type { ReportingClient } from '../reporting/client'
import { runAudience } from './audience'
import { chooseOffset, presentRange, resolveTokens } from './dates'
import { createInfoCache } from './info-cache'
import type { InfoStore } from './info-store'
import type { RankedValue } from './ranking'
import type { ClockContext } from './scope'
import { runTimeSeries } from './runner'
import { searchValues, type ValuesQuery } from './values'

/** The report feature behind the `reports:*` channels: the renderer sends definitions, main builds every request. */
export interface ReportService {
  info(profileId: string, project: string, report: string, options: { refresh?: boolean; signal: AbortSignal }): Promise<ReportInfoView>
  known(profileId: string): Promise<Array<{ project: string; report: string; fetchedAt: string }>>
  resolveDates(input: { start: string; end: string; timezone: TimezoneRule; reportTimezone: number | null }): ResolvedRange
  run(profileId: string, definition: ReportDefinition, options: { signal: AbortSignal; pointBudget?: number }): Promise<TimeSeriesView>
  audience(profileId: string, definition: ReportDefinition, options: { signal: AbortSignal }): Promise<AudienceView>
  values(profileId: string, definition: ReportDefinition, query: ValuesQuery, options: { signal: AbortSignal }): Promise<RankedValue[]>
}

export interface ReportServiceOptions {
  /** The reporting client of a profile's connection (the workspace's, with its tokens). */
  reportingOf(profileId: string): Promise<ReportingClient>
  store: InfoStore
  now?: () => Date
  /** This computer's UTC offset in minutes, east positive; read at each run so a preset follows its user. */
  osOffsetMinutes?: () => number
  monotonic?: () => number
}

export function createReportService(options: ReportServiceOptions): ReportService {
  const now = options.now ?? (() => new Date())
  const clock: ClockContext = { now, osOffsetMinutes: options.osOffsetMinutes ?? (() => -now().getTimezoneOffset()) }
  const monotonic = options.monotonic ?? (() => performance.now())
  const infos = createInfoCache({ reportingOf: options.reportingOf, store: options.store, now })

  async function context(profileId: string, definition: ReportDefinition, signal: AbortSignal) {
    const [reporting, info] = await Promise.all([options.reportingOf(profileId), infos.forDefinition(profileId, definition, signal)])
    return { reporting, info, clock, monotonic }
  }

  return {
    info: (profileId, project, report, { refresh, signal }) => infos.get(profileId, project, report, { signal, ...(refresh === undefined ? {} : { refresh }) }),
    known: (profileId) => infos.known(profileId),
    resolveDates({ start, end, timezone, reportTimezone }) {
      // Without the report's description at hand, take the rule as it is: the run checks support.
      const chosen = chooseOffset(timezone, { reportTimezone, supportsTimezone: true, osOffsetMinutes: clock.osOffsetMinutes() })
      return presentRange(resolveTokens(start, end, chosen.offset, now()), chosen.offset, chosen.notes)
    },
    async run(profileId, definition, { signal, pointBudget }) {
      return runTimeSeries(await context(profileId, definition, signal), definition, { signal, ...(pointBudget === undefined ? {} : { pointBudget }) })
    },
    async audience(profileId, definition, { signal }) {
      return runAudience(await context(profileId, definition, signal), definition, signal)
    },
    async values(profileId, definition, query, { signal }) {
      return searchValues(await context(profileId, definition, signal), definition, query, signal)
    },
  }
}
