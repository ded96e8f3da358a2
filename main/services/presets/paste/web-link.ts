import { filterMatchOf, granularityOf, isTimeKey } from './aliases'
import { directionOf, timezoneOf } from './fields'
import { MAX_BREAKDOWN_KEYS, MAX_METRICS } from './limits'
import { notUnderstood, TOTAL_LINE, type Reading } from './reading'

/*
 * A link to a report in the platform's web UI (/{project}/UI/Reports/{report}?start_date=…):
 * its query (and a single-page app's state after the #) read into the same Reading as a request
 * body, with its drill-down steps becoming filters or, on a time key, dates.
 */

/** A drill into a time key narrows the dates: `granularity_day` = `2019-10-27` is that day. */
function datesOfTimeValue(key: string, value: string): { start: string; end: string } | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})(?: \d{2}:\d{2})?$/.exec(value)
  if ((key === 'granularity_day' || key === 'granularity_hour') && day) {
    const date = `${day[1]}-${day[2]}-${day[3]}`
    return { start: date, end: date }
  }
  const month = /^(\d{4})-(\d{2})$/.exec(value)
  if (key === 'granularity_month' && month) {
    const last = new Date(Date.UTC(Number(month[1]), Number(month[2]), 0)).getUTCDate()
    return { start: `${month[1]}-${month[2]}-01`, end: `${month[1]}-${month[2]}-${String(last).padStart(2, '0')}` }
  }
  const quarter = /^(\d{4}) ?Q([1-4])$/i.exec(value)
  if (key === 'granularity_quarter' && quarter) {
    const first = (Number(quarter[2]) - 1) * 3 + 1
    const last = new Date(Date.UTC(Number(quarter[1]), first + 2, 0)).getUTCDate()
    return {
      start: `${quarter[1]}-${String(first).padStart(2, '0')}-01`,
      end: `${quarter[1]}-${String(first + 2).padStart(2, '0')}-${String(last).padStart(2, '0')}`,
    }
  }
  const year = /^(\d{4})$/.exec(value)
  if (key === 'granularity_year' && year) return { start: `${year[1]}-01-01`, end: `${year[1]}-12-31` }
  return null
}

/** Parameters of the web UI that say nothing a definition keeps (column order, UI version). */
const UI_QUIETLY_IGNORED = new Set(['field_order', 'version', 'token'])

export function readUrl(text: string): Reading {
  const unread: string[] = []
  const reading: Reading = { kind: 'url', filters: [], metricConditions: [], sort: [], unread }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw notUnderstood('The link could not be read as a web address.')
  }
  const segments = url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => safeDecode(segment))
  const at = segments.findIndex((segment, index) => segment.toLowerCase() === 'ui' && segments[index + 1]?.toLowerCase() === 'reports')
  if (at >= 1 && segments[at + 2] !== undefined) {
    reading.project = segments[at - 1]
    reading.report = segments[at + 2]
  } else {
    unread.push("The link's path is not /{project}/UI/Reports/{report}, so the project and report could not be read from it.")
  }

  const params = new URLSearchParams(url.search)
  // Single-page links may keep their state after the #.
  const hash = url.hash.replace(/^#!?\/?/, '')
  const hashQuery = hash.includes('=') ? hash.slice(hash.indexOf('?') + 1) : ''
  for (const [key, value] of new URLSearchParams(hashQuery)) params.append(key, value)
  const all = (key: string): string[] =>
    params
      .getAll(key)
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== '')
  const one = (key: string): string | undefined => {
    const values = params
      .getAll(key)
      .map((value) => value.trim())
      .filter((value) => value !== '')
    if (values.length > 1) unread.push(`${key} appears ${values.length} times in the link; the first (${values[0]}) was used.`)
    return values[0]
  }
  const handled = new Set<string>(UI_QUIETLY_IGNORED)
  const use = (key: string) => handled.add(key)

  use('start_date')
  use('end_date')
  const start = one('start_date')
  const end = one('end_date')
  if (start !== undefined) reading.start = start
  if (end !== undefined) reading.end = end
  use('tzo')
  const tzo = one('tzo')
  reading.timezone = tzo === undefined ? { mode: 'report' } : timezoneOf(tzo, 'tzo (timezone)', unread)
  use('granularity')
  const granularity = one('granularity')
  if (granularity !== undefined) reading.granularity = granularityOf(granularity)

  use('category')
  const categories = all('category')
  reading.breakdown = categories.slice(0, MAX_BREAKDOWN_KEYS)
  if (categories.length > MAX_BREAKDOWN_KEYS) unread.push(`category names ${categories.length} keys; the builder takes ${MAX_BREAKDOWN_KEYS}.`)
  use('id_list')
  const lines = all('id_list').map((line) => (line.toLowerCase() === 'total' ? TOTAL_LINE : line))
  if (lines.length > 0) reading.chartLines = lines

  use('chart_column')
  use('show')
  const charted = all('chart_column')
  const shown = all('show')
  const metrics = charted.length > 0 ? charted : shown
  if (metrics.length > 0) reading.metrics = [...new Set(metrics)].slice(0, MAX_METRICS)
  if (metrics.length > MAX_METRICS)
    unread.push(`The link names ${metrics.length} data fields; a chart takes ${MAX_METRICS}, so the first ${MAX_METRICS} were kept.`)
  const tableOnly = charted.length > 0 ? shown.filter((metric) => !charted.includes(metric)) : []
  if (tableOnly.length > 0)
    unread.push(
      `show (the web UI's table columns ${tableOnly.join(', ')}) was not read: the chart keeps chart_column only; add them as metrics if you want them charted.`,
    )

  use('order_by')
  use('order_direction')
  const orderBy = one('order_by')
  const direction = one('order_direction')
  if (orderBy !== undefined) reading.sort = [{ field: orderBy, direction: directionOf(direction, 'order_direction', unread), byName: false }]
  else if (direction !== undefined) unread.push('order_direction was not read: the link has no order_by.')

  use('parent_key')
  use('parent_match')
  use('parent_value')
  const parentKeys = params.getAll('parent_key')
  const parentMatches = params.getAll('parent_match')
  const parentValues = params.getAll('parent_value')
  parentKeys.forEach((key, index) => {
    const value = parentValues[index]
    const spelled = parentMatches[index] ?? 'equals'
    if (value === undefined) {
      unread.push(`The drill-down step on ${key} has no parent_value and was left out.`)
      return
    }
    const match = filterMatchOf(spelled)
    if (isTimeKey(key)) {
      const dates = match === 'equals' ? datesOfTimeValue(key, value) : null
      if (dates === null) {
        unread.push(`The drill-down step ${key} ${spelled} ${value} could not be read as dates and was left out.`)
        return
      }
      reading.start = dates.start
      reading.end = dates.end
      if (key === 'granularity_hour') unread.push(`The drill-down to the hour ${value} was widened to its whole day.`)
      return
    }
    if (match === null) {
      unread.push(`The drill-down step on ${key} was left out: the match ${spelled} is not one AdOps Desk knows.`)
      return
    }
    reading.filters.push({ key, match, values: [value], caseInsensitive: false, searchNames: false })
  })
  if (parentValues.length > parentKeys.length)
    unread.push(`The link has ${parentValues.length - parentKeys.length} parent_value without a parent_key; they were left out.`)

  for (const key of new Set(params.keys())) {
    if (handled.has(key)) continue
    unread.push(
      key === 'normalization'
        ? `normalization (${params.get(key) ?? ''}) was not read: the builder charts the values as they are.`
        : `${key} in the link was not read: it is not a parameter AdOps Desk knows.`,
    )
  }
  return reading
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
