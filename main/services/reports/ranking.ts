import type { ReportingClient } from '../reporting/client'
import { AppError } from '../errors'
import { withBuilderField } from './errors'
import { REQUEST_DEADLINE_MS } from '../http/client'
import { formatBytes } from '../../../common/format'
import { readCsvHead, type HeadLimits } from './csv-head'
import { exportRankingBody, LINE_SEPARATOR, rankingBody } from './platform-body'
import type { FilterBody, ReportScope } from './scope'

/**
 * "Top N by a metric" has no call of its own in the API (the spec has no `query`), so:
 * - one key: a time series with the key as x-axis, Total only, sorted DESC, `limit` N;
 * - several keys: an export split by the keys, sorted DESC, of which only N rows are read.
 */

export interface RankedValue {
  value: string
  /** The value's name, when the platform gave one (`__mapping__`). */
  name: string | null
}

/** The top `count` values of one key by `metric`, with names. */
export async function topValuesOfKey(
  reporting: ReportingClient,
  scope: ReportScope,
  key: string,
  metric: string,
  count: number,
  signal: AbortSignal,
  filters?: { filters: FilterBody[]; template: string | null },
): Promise<RankedValue[]> {
  const body = rankingBody(scope, key, metric, count, filters?.filters, filters?.template)
  const result = await reporting.timeSeries(body, { signal }).catch((error: unknown) => {
    throw withBuilderField(error, 'time_series')
  })
  const values: RankedValue[] = []
  for (const row of result.rows.slice(0, count)) {
    const value = row.__time__
    if (typeof value !== 'string' && typeof value !== 'number') continue
    const text = String(value)
    const mapping = row.__mapping__
    values.push({ value: text, name: typeof mapping === 'string' && mapping !== '' && mapping !== text ? mapping : null })
  }
  return values
}

/**
 * How much of the ranking export is read, and for how long. It is read into memory, not to
 * disk, so it gets bounds of its own: the export request has no overall deadline (a file export
 * may stream for hours), and a server that trickles or never closes a quote would otherwise
 * hold a report run and grow main's memory for ever. 51 rows of a few keys fit many times over.
 */
export interface RankingLimits {
  read: HeadLimits
  deadlineMs: number
}

export const RANKING_LIMITS: RankingLimits = {
  read: { maxBytes: 4 * 1024 * 1024, maxCellChars: 64 * 1024, maxCells: 256, onOverflow: 'stop' },
  deadlineMs: REQUEST_DEADLINE_MS,
}

/** The top `count` combinations of several keys, each joined with U+0002 as a chart line. */
export async function topCombinations(
  reporting: ReportingClient,
  scope: ReportScope,
  keys: readonly string[],
  metric: string,
  count: number,
  signal: AbortSignal,
  limits: RankingLimits = RANKING_LIMITS,
): Promise<string[]> {
  // The export is cut off after N rows: its own controller ends the download however this returns.
  const controller = new AbortController()
  const linked = AbortSignal.any([signal, controller.signal])
  const late = rankingTooSlow(limits.deadlineMs)
  const deadline = setTimeout(() => controller.abort(late), limits.deadlineMs)
  // A pending deadline must not keep the process (the command line, a test) alive.
  deadline.unref()
  try {
    const download = await reporting.export(exportRankingBody(scope, keys, metric), { signal: linked }).catch((error: unknown) => {
      throw withBuilderField(error, 'export')
    })
    const read = await readCsvHead(download.body, count + 1, limits.read)
    download.body.destroy()
    if (read.stop === 'bytes' || read.stop === 'overflow') throw rankingTooBig(read.stop, limits.read)
    const [header, ...rows] = read.records
    if (header === undefined) return []
    const columns = keys.map((key) => header.indexOf(key))
    if (columns.some((column) => column < 0)) {
      throw new AppError(
        'bad_response',
        `The ranking export did not have the columns ${keys.join(', ')}; the lines cannot be ranked. Pick them by hand instead.`,
        { header },
      )
    }
    return rows.map((row) => columns.map((column) => row[column] ?? '').join(LINE_SEPARATOR))
  } catch (error) {
    // However the deadline surfaced (a cancelled download, a broken stream), it is what happened.
    if (controller.signal.reason === late && !signal.aborted) throw late
    throw error
  } finally {
    clearTimeout(deadline)
    controller.abort()
  }
}

function rankingTooBig(stop: 'bytes' | 'overflow', limits: HeadLimits): AppError {
  const what =
    stop === 'bytes'
      ? `sent more than ${formatBytes(limits.maxBytes)} without the rows asked for`
      : `held a value longer than ${limits.maxCellChars.toLocaleString('en-US')} characters or a row of more than ${limits.maxCells} values (a quote that never closes, say)`
  return new AppError(
    'bad_response',
    `The platform's ranking export ${what}, so AdOps Desk stopped reading it and cannot pick the top lines. Pick the lines by hand instead, and check the connection's reporting address.`,
    { stop, limitBytes: limits.maxBytes, limitChars: limits.maxCellChars },
  )
}

function rankingTooSlow(deadlineMs: number): AppError {
  const seconds = Math.round(deadlineMs / 1000)
  const within = seconds >= 120 ? `${Math.round(seconds / 60)} minutes` : seconds >= 1 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${deadlineMs} ms`
  return new AppError(
    'timeout',
    `The platform's ranking export for the top lines did not arrive within ${within}. Check your network or VPN and try again, or pick the lines by hand.`,
    { deadlineMs },
  )
}

/** The chart lines of "top N": one key or several. */
export async function topLines(
  reporting: ReportingClient,
  scope: ReportScope,
  keys: readonly string[],
  metric: string,
  count: number,
  signal: AbortSignal,
  limits: RankingLimits = RANKING_LIMITS,
): Promise<string[]> {
  const [only] = keys
  if (keys.length === 1 && only !== undefined) return (await topValuesOfKey(reporting, scope, only, metric, count, signal)).map((ranked) => ranked.value)
  return topCombinations(reporting, scope, keys, metric, count, signal, limits)
}
