import type { AudienceView, ReportDefinition, ReportInfoView } from '@contract'
import type { ReportingClient } from '../reporting/client'
import type { AudienceResult, ReportRequest } from '../reporting/schemas'
import { invalidField, withBuilderField } from './errors'
import { planScope, scopeFields, type ClockContext, type ReportScope } from './scope'

/**
 * Unique counts. Uniques are not additive: nothing here adds rows up, and the total is the
 * platform's own count over the whole range.
 */

export function audienceBody(definition: ReportDefinition, info: ReportInfoView, scope: ReportScope): ReportRequest {
  const { breakdown, source, rowsLimit } = definition.audience
  breakdown.forEach((key, index) => {
    if (!info.keyFields.some((field) => field.name === key)) throw invalidField('audience', `"${key}" is not a key field of this report.`)
    if (breakdown.indexOf(key) !== index) throw invalidField('audience', `"${key}" is listed twice in the audience breakdown.`)
  })
  if (source !== null && info.audienceSources.length > 0 && !info.audienceSources.some((candidate) => candidate.name === source)) {
    throw invalidField(
      'audience',
      `"${source}" is not an audience source of this report; choose one of ${info.audienceSources.map((candidate) => candidate.name).join(', ')}.`,
    )
  }
  return {
    ...scopeFields(scope),
    split_by: [...breakdown],
    ...(source === null ? {} : { audience_key: source }),
    audience_rows_limit: rowsLimit,
  }
}

/** `confidence_range` as a percent: a number, or text such as "2.5" or "2.5%"; null when absent. */
export function percentOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'string') {
    const match = /^\s*±?\s*(-?\d+(?:\.\d+)?)\s*%?\s*$/.exec(value)
    return match ? Number(match[1]) : null
  }
  return null
}

function valuesOf(data: ReadonlyArray<{ name: string; value: unknown }> | undefined): AudienceView['totals'] {
  return (data ?? []).map((item) => ({
    name: item.name,
    value: typeof item.value === 'number' && Number.isFinite(item.value) ? item.value : percentOf(item.value),
  }))
}

export function audienceView(
  result: AudienceResult,
  definition: ReportDefinition,
  info: ReportInfoView,
  scope: ReportScope,
  ranAt: string,
  durationMs: number,
): AudienceView {
  return {
    ranAt,
    durationMs,
    range: scope.range,
    source: definition.audience.source ?? info.audienceSources[0]?.name ?? null,
    rowsLimit: definition.audience.rowsLimit,
    totals: valuesOf(result.total.data),
    confidenceRange: percentOf(result.total.confidence_range),
    recordsFound: typeof result.total.records_found === 'number' ? result.total.records_found : null,
    daysWithData: result.total.dates?.length ?? 0,
    daysInRange: scope.range.days,
    rows: result.rows.map((row) => {
      const name = row.name.map((part) => (typeof part === 'string' ? part : typeof part === 'number' ? String(part) : JSON.stringify(part)))
      return { name, label: name.join(' / '), values: valuesOf(row.data), confidenceRange: percentOf(row.confidence_range) }
    }),
  }
}

export interface AudienceContext {
  reporting: ReportingClient
  info: ReportInfoView
  clock: ClockContext
  monotonic: () => number
}

export async function runAudience(context: AudienceContext, definition: ReportDefinition, signal: AbortSignal): Promise<AudienceView> {
  const started = context.monotonic()
  const ranAt = context.clock.now().toISOString()
  const scope = planScope(definition, context.info, context.clock, { dataFilters: false })
  const body = audienceBody(definition, context.info, scope)
  const result = await context.reporting.audience(body, { signal }).catch((error: unknown) => {
    throw withBuilderField(error, 'audience')
  })
  return audienceView(result, definition, context.info, scope, ranAt, Math.round(context.monotonic() - started))
}
