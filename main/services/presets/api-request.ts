import type { ApiRequestCopy, ReportDefinition, ReportInfoView, RunKind } from '@contract'
import type { ReportRequest } from '../reporting/schemas'
import { audienceBody } from '../reports/audience'
import { comparisonRange } from '../reports/dates'
import { chartLines, exportRankingBody, planChart, rankingBody, timeSeriesBody, TOTAL_LINE } from '../reports/platform-body'
import { planScope, type ClockContext } from '../reports/scope'
import { jsonForCopy, shellComment, shellQuote, visibleText } from './copy-text'

/**
 * "Copy as API request": the bodies a run of this definition sends, built by the same request
 * builder the run uses, so what is copied is what the app sends. Two differences, on purpose:
 * the dates stay the definition's tokens (the copy keeps working next week) and the token is
 * the placeholder `<ACCESS_TOKEN>`; a copy never holds a secret.
 *
 * Field names come from the server's `info` (shared custom fields anyone may name), so the copy
 * is built to be safe to paste into a terminal whatever they hold (see copy-text.ts): names in
 * purposes are made visible, bodies escape every control or invisible character, and every word
 * of the curl command, comments included, is single-quoted.
 */
export const TOKEN_PLACEHOLDER = '<ACCESS_TOKEN>'

export interface RequestCopy {
  requests: ApiRequestCopy[]
  curl: string
  notes: string[]
}

export interface CopyContext {
  info: ReportInfoView
  clock: ClockContext
  /** The connection's reporting address (`{report_url}`); not a secret. */
  reportUrl: string
  /** The lines the last run of this definition charted (top N found by its ranking call), when one is kept. */
  lastLines: { lines: string[]; ranAt: string } | null
}

/** A body with the token placeholder right after the report's names, and the dates as tokens. */
function finish(body: ReportRequest, dates: { start: string; end: string } | null): Record<string, unknown> {
  const { project_name, slicer_name, ...rest } = body
  return { project_name, slicer_name, token: TOKEN_PLACEHOLDER, ...rest, ...(dates === null ? {} : { start_date: dates.start, end_date: dates.end }) }
}

export function copyRequests(definition: ReportDefinition, kind: RunKind, context: CopyContext): RequestCopy {
  const { info, clock } = context
  const tokens = { start: definition.dates.start.trim(), end: definition.dates.end.trim() }
  const planned: Array<{ purpose: string; operation: ApiRequestCopy['operation']; body: Record<string, unknown> }> = []
  const notes: string[] = []

  if (kind === 'audience') {
    const scope = planScope(definition, info, clock, { dataFilters: false })
    notes.push(...scope.notes)
    planned.push({ purpose: 'Audience: unique users', operation: 'audience', body: finish(audienceBody(definition, info, scope), tokens) })
  } else {
    const scope = planScope(definition, info, clock)
    const chart = planChart(definition, info, scope)
    notes.push(...scope.notes)
    let values: string[] = []
    if (definition.breakdown.length > 0 && definition.lines.mode === 'pick') values = [...new Set(definition.lines.values)]
    if (definition.breakdown.length > 0 && definition.lines.mode === 'top') {
      const { count } = definition.lines
      const metric = definition.lines.by ?? definition.metrics[0] ?? ''
      const keys = definition.breakdown
      const [only] = keys
      const shown = { metric: visibleText(metric), keys: keys.map(visibleText) }
      if (keys.length === 1 && only !== undefined) {
        planned.push({
          purpose: `Ranking: the top ${count} ${visibleText(only)} by ${shown.metric} (the rows' __time__ are the chart lines)`,
          operation: 'time_series',
          body: finish(rankingBody(scope, only, metric, count), tokens),
        })
      } else {
        planned.push({
          purpose: `Ranking: the top ${count} combinations of ${shown.keys.join(', ')} by ${shown.metric} (the first ${count} rows, joined with U+0002, are the chart lines)`,
          operation: 'export',
          body: finish(exportRankingBody(scope, keys, metric), tokens),
        })
      }
      if (context.lastLines !== null && context.lastLines.lines.length > 0) {
        values = context.lastLines.lines
        notes.push(`chart_lines hold the top ${count} as the last run (${context.lastLines.ranAt}) found them; the ranking request finds them again.`)
      } else {
        values = [`<TOP_${count}_FROM_RANKING>`]
        notes.push(`Replace <TOP_${count}_FROM_RANKING> in chart_lines with the values the ranking request answers.`)
      }
    }
    const lines = chartLines(definition, values)
    const comparison = definition.comparison === 'none' ? null : comparisonRange(scope.days, definition.comparison)
    for (const metric of definition.metrics) {
      // Purposes name fields; a name is shown with its control and invisible characters escaped.
      const shownMetric = visibleText(metric)
      planned.push({ purpose: `Chart: ${shownMetric}`, operation: 'time_series', body: finish(timeSeriesBody(scope, chart, metric, lines), tokens) })
      if (comparison !== null) {
        planned.push({
          purpose: `Comparison: ${shownMetric}, ${definition.comparison.replace('_', ' ')}`,
          operation: 'time_series',
          body: finish(timeSeriesBody(scope, chart, metric, lines, comparison), null),
        })
      }
    }
    if (comparison !== null) notes.push('The comparison period has no token of its own: its requests carry the absolute dates it stands for today.')
  }
  if (definition.timezone.mode === 'os') notes.push("timezone is this computer's UTC offset now; the app reads it again at every run.")

  const base = context.reportUrl.replace(/\/+$/, '')
  const requests = planned.map(({ purpose, operation, body }) => ({
    purpose,
    operation,
    url: `${base}/API/v2/${operation}`,
    body: jsonForCopy(body, 2),
  }))
  const curl = planned
    .map(({ purpose, operation, body }) =>
      [
        shellComment(purpose),
        `curl -sS -X POST ${shellQuote(`${base}/API/v2/${operation}`)} \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -H 'Accept: application/json' \\`,
        `  -H ${shellQuote(`Authorization: Bearer ${TOKEN_PLACEHOLDER}`)} \\`,
        `  --data-raw ${shellQuote(jsonForCopy(body))}`,
      ].join('\n'),
    )
    .join('\n\n')
  return { requests, curl: `${curl}\n`, notes }
}

/** The distinct non-total lines of a chart result, in order: what its ranking found. */
export function linesOfResult(series: ReadonlyArray<{ line: string; role: string }>): string[] {
  const lines: string[] = []
  for (const entry of series) if (entry.role === 'line' && entry.line !== TOTAL_LINE && !lines.includes(entry.line)) lines.push(entry.line)
  return lines
}

export interface RequestCopierOptions {
  infoOf(profileId: string, project: string, report: string, signal: AbortSignal): Promise<ReportInfoView>
  reportUrlOf(profileId: string): Promise<string>
  /** The last chart result kept for this definition, for the lines a ranking found. */
  lastChart(profileId: string, definition: ReportDefinition): Promise<{ series: ReadonlyArray<{ line: string; role: string }>; ranAt: string } | null>
  now?: () => Date
  osOffsetMinutes?: () => number
}

/** `reports:request`: the definition's requests for a connection (its address, its report's `info`). */
export function createRequestCopier(
  options: RequestCopierOptions,
): (profileId: string, definition: ReportDefinition, kind: RunKind, signal: AbortSignal) => Promise<RequestCopy> {
  const now = options.now ?? (() => new Date())
  const clock: ClockContext = { now, osOffsetMinutes: options.osOffsetMinutes ?? (() => -now().getTimezoneOffset()) }
  return async (profileId, definition, kind, signal) => {
    const [info, reportUrl, last] = await Promise.all([
      options.infoOf(profileId, definition.project, definition.report, signal),
      options.reportUrlOf(profileId),
      kind === 'chart' && definition.lines.mode === 'top' ? options.lastChart(profileId, definition).catch(() => null) : Promise.resolve(null),
    ])
    return copyRequests(definition, kind, {
      info,
      clock,
      reportUrl,
      lastLines: last === null ? null : { lines: linesOfResult(last.series), ranAt: last.ranAt },
    })
  }
}
