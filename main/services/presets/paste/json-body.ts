import { parseRelaxedJson, RelaxedJsonError, Variable, type Relaxed } from '../relaxed-json'
import { granularityOf, isTimeKey, TIME_KEYS } from './aliases'
import { describe, integerOf, nameOf, namesOf, readCondition, readFilter, readSort, textOf, timezoneOf } from './fields'
import { AUDIENCE_ROWS_LIMIT, CATEGORY_LIMIT, MAX_BREAKDOWN_KEYS, MAX_DATE_LENGTH, MAX_METRICS } from './limits'
import { notUnderstood, type ReadingKind, type Reading } from './reading'

/*
 * A platform request body (time_series, audience or export), as the API docs and scripts show it:
 * JSON or Python/JavaScript literals. Every field the platform knows is read into a Reading; every
 * other field gets a sentence, so nothing in the paste is dropped without the user being told.
 */

export function parseBody(text: string): Record<string, Relaxed> {
  let value: Relaxed
  try {
    value = parseRelaxedJson(text)
  } catch (error) {
    if (error instanceof RelaxedJsonError) throw notUnderstood(`The pasted request could not be read: ${error.message}.`)
    throw error
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Variable)
    throw notUnderstood('The pasted request is not a JSON object ({ … }).')
  return value
}

/** Fields a request may carry that say nothing a definition keeps. */
const QUIETLY_IGNORED = new Set(['token', 'export_format', 'include_mappings', 'include_total'])

function bodyKind(body: Record<string, Relaxed>, fromUrl: ReadingKind | null): ReadingKind {
  if (fromUrl !== null) return fromUrl
  if ('data_field' in body || 'chart_lines' in body || 'granularity' in body) return 'time_series'
  if ('audience_rows_limit' in body || 'audience_key' in body) return 'audience'
  if ('data_fields' in body || 'export_format' in body) return 'export'
  // split_by and dates only: the docs' audience example looks exactly like this.
  return 'audience'
}

export function readBody(body: Record<string, Relaxed>, fromUrl: ReadingKind | null): Reading {
  const unread: string[] = []
  const kind = bodyKind(body, fromUrl)
  const reading: Reading = { kind, filters: [], metricConditions: [], sort: [], unread }
  const handled = new Set<string>(QUIETLY_IGNORED)
  const take = (key: string): Relaxed | undefined => {
    handled.add(key)
    return body[key]
  }

  const project = take('project_name')
  if (project !== undefined) reading.project = nameOf(project, 'project_name', unread) ?? undefined
  const slicer = take('slicer_name')
  if (slicer !== undefined) reading.report = nameOf(slicer, 'slicer_name', unread) ?? undefined
  for (const [field, part] of [
    ['start_date', 'start'],
    ['end_date', 'end'],
  ] as const) {
    const value = take(field)
    if (value === undefined) continue
    const text = textOf(value)
    if (text === null || text === '' || text.length > MAX_DATE_LENGTH) unread.push(`${field} could not be read: ${describe(value)} is not a date.`)
    else reading[part] = text
  }
  const timezone = take('timezone')
  reading.timezone = timezone === undefined ? { mode: 'report' } : timezoneOf(timezone, 'timezone', unread)

  const dataField = take('data_field')
  const dataFields = take('data_fields')
  const metrics = [
    ...(dataField === undefined ? [] : (namesOf(dataField, 'data_field', unread) ?? [])),
    ...(dataFields === undefined ? [] : (namesOf(dataFields, 'data_fields', unread) ?? [])),
  ]
  const uniqueMetrics = [...new Set(metrics)]
  if (uniqueMetrics.length > MAX_METRICS)
    unread.push(
      `The request names ${uniqueMetrics.length} data fields; a chart takes ${MAX_METRICS}, so ${uniqueMetrics.slice(MAX_METRICS).join(', ')} were left out.`,
    )
  if (uniqueMetrics.length > 0) reading.metrics = uniqueMetrics.slice(0, MAX_METRICS)

  const splitBy = take('split_by')
  const keys = splitBy === undefined ? [] : (namesOf(splitBy, 'split_by', unread) ?? [])
  const granularity = take('granularity')
  if (kind === 'audience') {
    reading.breakdown = keys
  } else if (kind === 'export') {
    // An export is a table; as a chart its finest time key is the x-axis and the other keys are lines.
    const times = keys.filter(isTimeKey)
    const others = keys.filter((key) => !isTimeKey(key))
    const finest = TIME_KEYS.map((time) => `granularity_${time}`).find((key) => times.includes(key))
    if (finest !== undefined) {
      reading.granularity = finest
      reading.breakdown = others
      if (times.length > 1) unread.push(`split_by has several time keys (${times.join(', ')}); the chart uses the finest, ${finest}.`)
    } else if (others.length > 0) {
      reading.granularity = others[0] as string
      reading.breakdown = others.slice(1)
    } else {
      reading.breakdown = []
    }
  } else {
    reading.breakdown = keys
    if (granularity !== undefined) {
      const name = nameOf(granularity, 'granularity', unread)
      if (name !== null) reading.granularity = granularityOf(name)
    }
  }
  if (kind === 'export' && granularity !== undefined) unread.push('granularity was not read: an export has none.')
  if (reading.breakdown !== undefined && reading.breakdown.length > MAX_BREAKDOWN_KEYS) {
    unread.push(
      `The request splits by ${reading.breakdown.length} keys; the builder takes ${MAX_BREAKDOWN_KEYS}, so ${reading.breakdown.slice(MAX_BREAKDOWN_KEYS).join(', ')} were left out.`,
    )
    reading.breakdown = reading.breakdown.slice(0, MAX_BREAKDOWN_KEYS)
  }

  const chartLines = take('chart_lines')
  if (chartLines !== undefined) reading.chartLines = namesOf(chartLines, 'chart_lines', unread) ?? undefined
  const limit = take('limit')
  if (limit !== undefined) reading.categoryLimit = integerOf(limit, 'limit', CATEGORY_LIMIT.min, CATEGORY_LIMIT.max, unread) ?? undefined

  const filters = take('filters')
  if (filters !== undefined) {
    const items = Array.isArray(filters) ? filters : [filters]
    items.forEach((item, index) => {
      const filter = readFilter(item, index + 1, unread)
      if (filter !== null) reading.filters.push(filter)
    })
  }
  const filterTemplate = take('filter_template')
  if (filterTemplate !== undefined && filterTemplate !== null) {
    const text = textOf(filterTemplate)
    if (text === null) unread.push(`filter_template could not be read: ${describe(filterTemplate)}.`)
    else reading.filterLogic = text
  }
  const dataFilters = take('data_filters')
  if (dataFilters !== undefined) {
    const items = Array.isArray(dataFilters) ? dataFilters : [dataFilters]
    items.forEach((item, index) => {
      const condition = readCondition(item, index + 1, unread)
      if (condition !== null) reading.metricConditions.push(condition)
    })
  }
  const dataTemplate = take('data_filter_template')
  if (dataTemplate !== undefined && dataTemplate !== null) {
    const text = textOf(dataTemplate)
    if (text === null) unread.push(`data_filter_template could not be read: ${describe(dataTemplate)}.`)
    else reading.metricConditionLogic = text
  }
  const orderBy = take('order_by')
  if (orderBy !== undefined && orderBy !== null) reading.sort = readSort(orderBy, unread)

  const audienceKey = take('audience_key')
  if (audienceKey !== undefined) reading.audienceSource = audienceKey === null ? null : (nameOf(audienceKey, 'audience_key', unread) ?? undefined)
  const rowsLimit = take('audience_rows_limit')
  if (rowsLimit !== undefined)
    reading.audienceRowsLimit = integerOf(rowsLimit, 'audience_rows_limit', AUDIENCE_ROWS_LIMIT.min, AUDIENCE_ROWS_LIMIT.max, unread) ?? undefined

  for (const key of Object.keys(body)) {
    if (handled.has(key)) continue
    unread.push(
      key === 'data_field_options'
        ? 'data_field_options was not read: the builder has no per-metric options.'
        : `${key} was not read: it is not a field of a ${kind.replace('_', ' ')} request AdOps Desk knows.`,
    )
  }
  return reading
}
