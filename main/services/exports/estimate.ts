import type { ExportEstimate } from '@contract'
import { AppError } from '../errors'
import type { ReportingClient } from '../reporting/client'
import { rankingBody } from '../reports/platform-body'
import { capsOf, type ExportPlan } from './export-plan'

/** The estimate's ranking call reads at most this many values of the first key (the API's `limit`). */
export const ESTIMATE_LIMIT = 10_000

/**
 * How many rows an export will have, before it starts: the values of its first key, as the
 * report builder's ranking call (exact for one key below the limit, a lower bound otherwise),
 * with the format's caps. A platform that cannot be asked gives a note, not an error.
 */
export async function estimateExport(planned: ExportPlan, reportingOf: () => Promise<ReportingClient>, signal: AbortSignal): Promise<ExportEstimate> {
  const caps = capsOf(planned.format)
  const first = planned.keys[0] as string
  const metric = planned.dataFields[0] as string
  let rows: ExportEstimate['rows'] = null
  let note: string | null = null
  try {
    const reporting = await reportingOf()
    const result = await reporting.timeSeries(rankingBody(planned.scope, first, metric, ESTIMATE_LIMIT), { signal })
    const count = result.rows.length
    const atLeast = count >= ESTIMATE_LIMIT || planned.keys.length > 1
    rows = { count, atLeast }
    note = rowsNote(count, first, planned.keys.length)
  } catch (error) {
    if (signal.aborted) throw error
    note = `No estimate: ${error instanceof AppError ? error.message : 'the platform could not be asked.'}`
  }
  return { cap: caps.cap, othersRow: caps.othersRow, rules: caps.rules, rows, note, keys: [...planned.keys] }
}

function rowsNote(count: number, first: string, keyCount: number): string {
  const counted = count.toLocaleString('en-US')
  if (keyCount > 1)
    return `At least ${counted} rows: ${first} alone has ${count >= ESTIMATE_LIMIT ? 'that many values or more' : 'that many values'}, and its combinations with the other keys can be many more.`
  if (count >= ESTIMATE_LIMIT) return `At least ${counted} rows: ${first} has that many values or more.`
  return `${counted} rows (one per value of ${first}).`
}
