import { AsyncLocalStorage } from 'node:async_hooks'
import { performance } from 'node:perf_hooks'
import type { AudienceView, HistoryEntry, ReportDefinition, RunKind, TimeSeriesView } from '@contract'
import { isAppError, toErrorShape } from '../errors'
import type { Notices } from '../notices'
import type { ReportingClient } from '../reporting/client'
import type { ReportService } from '../reports/service'
import type { RecordedRequest, ResultCache } from '../results/result-cache'
import type { RunHistoryStore } from './run-history-store'

/**
 * Every run leaves a line in the history and, when it succeeds, its result in the cache. This
 * wraps the report service from outside, so the runner stays a pure function of its inputs.
 */

/** Run options that also say which preset the run comes from. */
export interface RecordedRunOptions {
  signal: AbortSignal
  pointBudget?: number
  preset?: string | null | undefined
}

export type RecordedReportService = Omit<ReportService, 'run' | 'audience'> & {
  run(profileId: string, definition: ReportDefinition, options: RecordedRunOptions): Promise<TimeSeriesView>
  audience(profileId: string, definition: ReportDefinition, options: Omit<RecordedRunOptions, 'pointBudget'>): Promise<AudienceView>
  /** Resolves once every recording started so far has been written (tests, quitting, the command line). */
  flush(): Promise<void>
}

/**
 * The request bodies a run sends, as built (the client adds the token later, so none is here).
 * The report service asks for its reporting client per run; `wrap` returns one that writes what
 * it sends into the list of the run it was called in. AsyncLocalStorage tells runs apart, so
 * two runs at once never mix their requests.
 */
export interface RequestCapture {
  wrap(client: ReportingClient): ReportingClient
  capture<T>(into: RecordedRequest[], work: () => Promise<T>): Promise<T>
}

export function createRequestCapture(): RequestCapture {
  const current = new AsyncLocalStorage<RecordedRequest[]>()
  const note = (operation: RecordedRequest['operation'], body: Record<string, unknown>) => current.getStore()?.push({ operation, body: structuredClone(body) })
  return {
    wrap: (client) => ({
      info: (target, options) => client.info(target, options),
      timeSeries(request, options) {
        note('time_series', request)
        return client.timeSeries(request, options)
      },
      audience(request, options) {
        note('audience', request)
        return client.audience(request, options)
      },
      export(request, options) {
        note('export', request)
        return client.export(request, options)
      },
    }),
    capture: (into, work) => current.run(into, work),
  }
}

export interface RecordRunsOptions {
  cache: ResultCache
  runHistory: RunHistoryStore
  capture: RequestCapture
  /** The connection's display name now, kept in the history in case it is renamed or deleted. */
  connectionName(profileId: string): Promise<string>
  notices: Pick<Notices, 'add'>
  now?: () => Date
  monotonic?: () => number
}

type Finished = { result: TimeSeriesView; kind: 'chart' } | { result: AudienceView; kind: 'audience' }

function counts(finished: Finished): { rows: number; points: number } {
  if (finished.kind === 'chart') return { rows: finished.result.sourcePoints, points: finished.result.sourcePoints * finished.result.series.length }
  const { rows, totals } = finished.result
  return { rows: rows.length, points: rows.reduce((sum, row) => sum + row.values.length, 0) + totals.length }
}

export function recordRuns(inner: ReportService, options: RecordRunsOptions): RecordedReportService {
  const now = options.now ?? (() => new Date())
  const monotonic = options.monotonic ?? (() => performance.now())
  const pending = new Set<Promise<void>>()
  let warned = false

  /** Best effort: the dates a failed run stood for (a report-timezone rule needs `info`, which a failed run may not have had). */
  function rangeOf(definition: ReportDefinition): HistoryEntry['range'] {
    if (definition.timezone.mode === 'report') return null
    try {
      const { start, end, timezone } = inner.resolveDates({
        start: definition.dates.start,
        end: definition.dates.end,
        timezone: definition.timezone,
        reportTimezone: null,
      })
      return { start, end, timezone }
    } catch {
      return null
    }
  }

  async function write(
    profileId: string,
    definition: ReportDefinition,
    preset: string | null,
    kind: RunKind,
    ranAt: Date,
    durationMs: number,
    requests: RecordedRequest[],
    outcome: Finished | { error: unknown; cancelled: boolean },
  ): Promise<void> {
    const connection = await options.connectionName(profileId).catch(() => profileId)
    const base = {
      ranAt: ranAt.toISOString(),
      profileId,
      connection,
      preset,
      kind,
      project: definition.project,
      report: definition.report,
      dates: definition.dates,
      durationMs: Math.round(durationMs),
    }
    if ('result' in outcome) {
      const { range } = outcome.result
      await options.cache.put(
        outcome.kind === 'chart'
          ? { profileId, preset, definition, requests, kind: 'chart', result: outcome.result }
          : { profileId, preset, definition, requests, kind: 'audience', result: outcome.result },
      )
      await options.runHistory.add(
        { ...base, range: { start: range.start, end: range.end, timezone: range.timezone }, ...counts(outcome), outcome: 'ok', error: null },
        definition,
      )
      return
    }
    const message = isAppError(outcome.error) ? outcome.error.message : toErrorShape(outcome.error).message
    await options.runHistory.add(
      { ...base, range: rangeOf(definition), rows: null, points: null, outcome: outcome.cancelled ? 'cancelled' : 'error', error: message },
      definition,
    )
  }

  /** Recorded after the answer is handed back: writing a large result must not hold up the chart. */
  function later(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      if (warned) return
      warned = true
      options.notices.add({
        level: 'warning',
        message: 'A report run could not be written to the history or the saved results. Check that the disk is not full.',
        details: { error: String(error) },
      })
    })
    pending.add(tracked)
    void tracked.finally(() => pending.delete(tracked))
  }

  async function recorded<T extends TimeSeriesView | AudienceView>(
    kind: RunKind,
    profileId: string,
    definition: ReportDefinition,
    preset: string | null,
    signal: AbortSignal,
    run: () => Promise<T>,
  ): Promise<T> {
    const ranAt = now()
    const started = monotonic()
    const requests: RecordedRequest[] = []
    try {
      const result = await options.capture.capture(requests, run)
      // The kind and the result's type go together: `run` passes 'chart', `audience` 'audience'.
      const finished = { kind, result } as Finished
      later(write(profileId, definition, preset, kind, ranAt, monotonic() - started, requests, finished))
      return result
    } catch (error) {
      const cancelled = signal.aborted || (isAppError(error) && error.code === 'cancelled')
      later(write(profileId, definition, preset, kind, ranAt, monotonic() - started, requests, { error, cancelled }))
      throw error
    }
  }

  return {
    ...inner,
    run: (profileId, definition, { preset = null, signal, pointBudget }) =>
      recorded('chart', profileId, definition, preset, signal, () =>
        inner.run(profileId, definition, { signal, ...(pointBudget === undefined ? {} : { pointBudget }) }),
      ),
    audience: (profileId, definition, { preset = null, signal }) =>
      recorded('audience', profileId, definition, preset, signal, () => inner.audience(profileId, definition, { signal })),
    async flush() {
      while (pending.size > 0) await Promise.all([...pending])
    },
  }
}
