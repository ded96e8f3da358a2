import type { ReportingClient } from '../reporting/client'
import { AppError } from '../errors'
import { withBuilderField } from './errors'
import { readCsvHead } from './csv-head'
import { exportRankingBody, LINE_SEPARATOR, rankingBody, type FilterBody, type ReportScope } from './request'

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

/** The top `count` combinations of several keys, each joined with U+0002 as a chart line. */
export async function topCombinations(
  reporting: ReportingClient,
  scope: ReportScope,
  keys: readonly string[],
  metric: string,
  count: number,
  signal: AbortSignal,
): Promise<string[]> {
  // The export is cut off after N rows: its own controller ends the download however this returns.
  const controller = new AbortController()
  const linked = AbortSignal.any([signal, controller.signal])
  try {
    const download = await reporting.export(exportRankingBody(scope, keys, metric), { signal: linked }).catch((error: unknown) => {
      throw withBuilderField(error, 'export')
    })
    const records = await readCsvHead(download.body, count + 1)
    download.body.destroy()
    const [header, ...rows] = records
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
  } finally {
    controller.abort()
  }
}

/** The chart lines of "top N": one key or several. */
export async function topLines(
  reporting: ReportingClient,
  scope: ReportScope,
  keys: readonly string[],
  metric: string,
  count: number,
  signal: AbortSignal,
): Promise<string[]> {
  const [only] = keys
  if (keys.length === 1 && only !== undefined) return (await topValuesOfKey(reporting, scope, only, metric, count, signal)).map((ranked) => ranked.value)
  return topCombinations(reporting, scope, keys, metric, count, signal)
}
