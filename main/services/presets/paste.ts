import {
  conditionMatches,
  filterMatches,
  MAX_CHART_LINES,
  reportDefinitionSchema,
  type FilterMatch,
  type LineSelection,
  type MetricCondition,
  type ReportDefinition,
  type ReportFilter,
  type SortRule,
  type TimezoneRule,
} from '@contract'
import { defaultDefinitionParts as commonDefaultParts } from '../../../common/definition'
import { TIME_GRANULARITIES } from '../../../common/granularity'
import { REPORT_LIMITS } from '../../../common/limits'
import { LINE_SEPARATOR, TOTAL_LINE } from '../../../common/lines'
import { AppError } from '../errors'
import { curlParts, parseRelaxedJson, RelaxedJsonError, Variable, type Relaxed } from './relaxed-json'

/**
 * "Paste a request": a platform request body (time_series, audience or export, as the API docs
 * and scripts show it, JSON or Python/JavaScript literals, or a whole curl command) or a link to
 * the platform's web reporting UI becomes a builder definition, with one sentence per thing that
 * could not be read. Pure: no network, no `info`; the run checks names against the report.
 *
 * What the paste does not say is taken from `base` (the builder's state) only where a request
 * cannot say it (chart type, comparison, the other tab's settings); what a request leaves out on
 * purpose (no filters, no sort) is empty, so the builder becomes the pasted request.
 */
export interface PasteResult {
  definition: ReportDefinition
  unread: string[]
}

const TIME_KEYS = TIME_GRANULARITIES
const { metrics: MAX_METRICS, breakdownKeys: MAX_BREAKDOWN_KEYS, filters: MAX_FILTERS, sortRules: MAX_SORT_RULES } = REPORT_LIMITS
const MAX_NAME = 200
const MAX_FILTER_VALUES = 1_000

// The builder's own defaults (common/definition), one definition for the builder and the paste.
export const defaultDefinitionParts = commonDefaultParts() satisfies Partial<ReportDefinition>

type Kind = 'time_series' | 'audience' | 'export' | 'url'

/** What the paste said, before it is laid over the base. Absent: the paste did not say. */
interface Reading {
  kind: Kind
  project?: string
  report?: string
  start?: string
  end?: string
  timezone?: TimezoneRule
  metrics?: string[]
  granularity?: string
  categoryLimit?: number
  breakdown?: string[]
  /** The chart lines as sent (`__total__` included), before they meet the breakdown. */
  chartLines?: string[]
  filters: ReportFilter[]
  filterLogic?: string
  metricConditions: MetricCondition[]
  metricConditionLogic?: string
  sort: SortRule[]
  audienceSource?: string | null
  audienceRowsLimit?: number
  unread: string[]
}

export function parsePastedRequest(text: string, base: Partial<ReportDefinition> = {}): PasteResult {
  const trimmed = text.trim()
  const curl = curlParts(trimmed)
  let reading: Reading
  if (curl !== null) {
    if (curl.body === null) {
      if (curl.url === null) throw notUnderstood('The curl command has neither a request body (-d) nor a link.')
      reading = readUrl(curl.url)
    } else {
      reading = readBody(parseBody(curl.body), operationOf(curl.url))
    }
  } else if (/^https?:\/\//i.test(trimmed)) {
    reading = readUrl(trimmed)
  } else if (/^(?:(?:var|let|const)\s+)?[\w$.]*\s*=?\s*\{/.test(trimmed)) {
    reading = readBody(parseBody(trimmed), null)
  } else {
    throw notUnderstood('Paste a request body (JSON, starting with "{"), a curl command, or a link to a report in the platform\'s web UI.')
  }
  return assemble(reading, base)
}

function notUnderstood(message: string): AppError {
  return new AppError('validation', message, { fields: { text: [message] } })
}

function parseBody(text: string): Record<string, Relaxed> {
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

/** `…/API/v2/time_series` in a curl command says which call the body is for. */
function operationOf(url: string | null): Kind | null {
  const operation = /\/API\/v\d+\/(time_series|audience|export)\b/i.exec(url ?? '')?.[1]?.toLowerCase()
  return operation === 'time_series' || operation === 'audience' || operation === 'export' ? operation : null
}

/* ---------- small readers, each adding a sentence when the value cannot be used ---------- */

function describe(value: Relaxed): string {
  if (value instanceof Variable) return `the variable ${value.name}`
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

function textOf(value: Relaxed): string | null {
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return null
}

function nameOf(value: Relaxed, field: string, unread: string[]): string | null {
  const text = textOf(value)
  if (text === null || text === '') {
    unread.push(`${field} could not be read: ${describe(value)} is not a name.`)
    return null
  }
  if (text.length > MAX_NAME) {
    unread.push(`${field} could not be read: it is longer than ${MAX_NAME} characters.`)
    return null
  }
  return text
}

/** A list of names: an array, or one string (`split_by: "country"` appears in the docs' examples). */
function namesOf(value: Relaxed, field: string, unread: string[]): string[] | null {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : null
  if (items === null) {
    unread.push(`${field} could not be read: ${describe(value)} is not a list of names.`)
    return null
  }
  // A request names a handful (5 keys, 8 data fields, 50 lines): a list of thousands is no request, and is not read
  // name by name (a sentence each would bury the others).
  if (items.length > MAX_LISTED_NAMES) {
    unread.push(`${field} could not be read: it lists ${items.length.toLocaleString('en-US')} names, far more than a report takes.`)
    return null
  }
  // Duplicates dropped through a set: a list search per name made a long list cost its length squared.
  const names = new Set<string>()
  items.forEach((item, index) => {
    const name = nameOf(item, `${field} item ${index + 1}`, unread)
    if (name !== null) names.add(name)
  })
  return [...names]
}

/** Names a list field may hold before it is refused whole: far above any request (the platform takes 5 keys, 50 lines). */
const MAX_LISTED_NAMES = 1_000

/** 1, true, "1", "true", True: the platform takes 0/1 and scripts send booleans. */
function flagOf(value: Relaxed | undefined, field: string, unread: string[]): boolean {
  if (value === undefined || value === null) return false
  if (value === true || value === 1) return true
  if (value === false || value === 0) return false
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase()
    if (text === '1' || text === 'true' || text === 'yes') return true
    if (text === '0' || text === 'false' || text === 'no' || text === '') return false
  }
  unread.push(`${field} could not be read: ${describe(value)} is neither 0 nor 1; it was taken as 0.`)
  return false
}

function integerOf(value: Relaxed, field: string, min: number, max: number, unread: string[]): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : NaN
  if (!Number.isInteger(number) || number < min || number > max) {
    unread.push(`${field} could not be read: ${describe(value)} is not a whole number from ${min} to ${max}.`)
    return null
  }
  return number
}

/** Every spelling of a filter match seen in the docs, the vendor's scripts and the web UI. */
export function filterMatchOf(spelling: string): FilterMatch | null {
  const compact = spelling
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '')
  const known: Record<string, FilterMatch> = {
    equals: 'equals',
    equal: 'equals',
    eq: 'equals',
    is: 'equals',
    '=': 'equals',
    '==': 'equals',
    notequals: 'not equals',
    notequal: 'not equals',
    ne: 'not equals',
    isnot: 'not equals',
    '!=': 'not equals',
    '<>': 'not equals',
    contains: 'contains',
    notcontains: 'not contains',
    doesnotcontain: 'not contains',
    beginswith: 'begins with',
    startswith: 'begins with',
    endswith: 'ends with',
    notbeginswith: 'not begins with',
    notstartswith: 'not begins with',
    notendswith: 'not ends with',
  }
  return known[compact] ?? null
}

export function conditionMatchOf(spelling: string): MetricCondition['match'] | null {
  const compact = spelling.trim().toLowerCase().replace(/\s+/g, '')
  const aliases: Record<string, MetricCondition['match']> = {
    gt: '>',
    ge: '>=',
    gte: '>=',
    lt: '<',
    le: '<=',
    lte: '<=',
    eq: '=',
    '==': '=',
    ne: '!=',
    neq: '!=',
    '<>': '!=',
  }
  if ((conditionMatches as readonly string[]).includes(compact)) return compact as MetricCondition['match']
  return aliases[compact] ?? null
}

/** `day` → `granularity_day`; full names and key fields as they are. */
function granularityOf(value: string): string {
  const short = TIME_KEYS.find((key) => key === value.toLowerCase())
  return short === undefined ? value : `granularity_${short}`
}

const isTimeKey = (key: string): boolean => TIME_KEYS.some((time) => `granularity_${time}` === key)

function timezoneOf(value: Relaxed, field: string, unread: string[]): TimezoneRule | undefined {
  if (value === null) return { mode: 'report' }
  const offset = integerOf(typeof value === 'string' ? value.replace(/^\s*(utc|gmt)\s*/i, '') : value, field, -12, 12, unread)
  return offset === null ? undefined : { mode: 'fixed', offset }
}

function readFilter(item: Relaxed, position: number, unread: string[], where = 'filters'): ReportFilter | null {
  const label = `${where} item ${position}`
  if (typeof item !== 'object' || item === null || Array.isArray(item) || item instanceof Variable) {
    unread.push(`${label} could not be read: ${describe(item)} is not a filter ({"name", "match", "value"}).`)
    return null
  }
  const key = item.name === undefined ? null : nameOf(item.name, `${label} name`, unread)
  if (key === null) {
    if (item.name === undefined) unread.push(`${label} was left out: it names no key field ("name").`)
    return null
  }
  const spelled = item.match ?? item.operator
  const match = typeof spelled === 'string' ? filterMatchOf(spelled) : null
  if (match === null) {
    unread.push(
      spelled === undefined
        ? `Filter on ${key} was left out: it has no "match".`
        : `Filter on ${key} was left out: the match ${describe(spelled)} is not one AdOps Desk knows (${filterMatches.join(', ')}).`,
    )
    return null
  }
  const raw = item.value ?? item.values
  const listed = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]
  const values: string[] = []
  for (const value of listed) {
    const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null
    if (text === null) unread.push(`A value of the filter on ${key} could not be read: ${describe(value)}.`)
    else if (text.length > 1_000) unread.push(`A value of the filter on ${key} is longer than 1,000 characters and was left out.`)
    else values.push(text)
  }
  if (values.length > MAX_FILTER_VALUES) {
    unread.push(`The filter on ${key} has ${values.length} values; the first ${MAX_FILTER_VALUES} were kept.`)
    values.length = MAX_FILTER_VALUES
  }
  if (values.length === 0) {
    unread.push(`Filter on ${key} was left out: it has no value.`)
    return null
  }
  for (const known of Object.keys(item)) {
    if (!['name', 'match', 'operator', 'value', 'values', 'case_insensitive', 'search_mappings'].includes(known))
      unread.push(`${known} in the filter on ${key} was not read.`)
  }
  return {
    key,
    match,
    values,
    caseInsensitive: flagOf(item.case_insensitive, `case_insensitive of the filter on ${key}`, unread),
    searchNames: flagOf(item.search_mappings, `search_mappings of the filter on ${key}`, unread),
  }
}

function readCondition(item: Relaxed, position: number, unread: string[]): MetricCondition | null {
  const label = `data_filters item ${position}`
  if (typeof item !== 'object' || item === null || Array.isArray(item) || item instanceof Variable) {
    unread.push(`${label} could not be read: ${describe(item)} is not a data filter ({"name", "match", "value"}).`)
    return null
  }
  const metric = item.name === undefined ? null : nameOf(item.name, `${label} name`, unread)
  if (metric === null) {
    if (item.name === undefined) unread.push(`${label} was left out: it names no data field ("name").`)
    return null
  }
  // `operator` is the older spelling the demo backend still accepts.
  const spelled = item.match ?? item.operator
  const match = typeof spelled === 'string' ? conditionMatchOf(spelled) : null
  if (match === null) {
    unread.push(
      `The data filter on ${metric} was left out: ${spelled === undefined ? 'it has no "match"' : `the match ${describe(spelled)} is not one of ${conditionMatches.join(' ')}`}.`,
    )
    return null
  }
  const value = typeof item.value === 'number' ? String(item.value) : typeof item.value === 'string' ? item.value.trim() : ''
  if (value === '' || value.length > 40) {
    unread.push(`The data filter on ${metric} was left out: its value ${item.value === undefined ? 'is missing' : describe(item.value)} is not a number.`)
    return null
  }
  return { metric, match, value }
}

function readSort(value: Relaxed, unread: string[]): SortRule[] {
  const items = Array.isArray(value) ? value : [value]
  const rules: SortRule[] = []
  items.forEach((item, index) => {
    const label = `order_by${items.length > 1 ? ` item ${index + 1}` : ''}`
    if (typeof item === 'string') {
      if (item.trim() !== '') rules.push({ field: item.trim(), direction: 'ASC', byName: false })
      return
    }
    if (typeof item !== 'object' || item === null || Array.isArray(item) || item instanceof Variable) {
      unread.push(`${label} could not be read: ${describe(item)} is not a sort rule ({"name", "direction"}).`)
      return
    }
    const field = item.name === undefined ? null : nameOf(item.name, `${label} name`, unread)
    if (field === null) return
    const direction = directionOf(item.direction, `${label} direction`, unread)
    rules.push({ field, direction, byName: flagOf(item.mapping, `${label} mapping`, unread) })
  })
  if (rules.length > MAX_SORT_RULES) {
    unread.push(`order_by has ${rules.length} rules; the first ${MAX_SORT_RULES} were kept.`)
    rules.length = MAX_SORT_RULES
  }
  return rules
}

function directionOf(value: Relaxed | undefined, field: string, unread: string[]): 'ASC' | 'DESC' {
  if (value === undefined || value === null) return 'ASC'
  const text = typeof value === 'string' ? value.trim().toLowerCase() : ''
  if (text === 'asc' || text === 'ascending') return 'ASC'
  if (text === 'desc' || text === 'descending') return 'DESC'
  unread.push(`${field} could not be read: ${describe(value)} is neither ASC nor DESC; ASC was taken.`)
  return 'ASC'
}

/* ---------- a request body ---------- */

/** Fields a request may carry that say nothing a definition keeps. */
const QUIETLY_IGNORED = new Set(['token', 'export_format', 'include_mappings', 'include_total'])

function bodyKind(body: Record<string, Relaxed>, fromUrl: Kind | null): Kind {
  if (fromUrl !== null) return fromUrl
  if ('data_field' in body || 'chart_lines' in body || 'granularity' in body) return 'time_series'
  if ('audience_rows_limit' in body || 'audience_key' in body) return 'audience'
  if ('data_fields' in body || 'export_format' in body) return 'export'
  // split_by and dates only: the docs' audience example looks exactly like this.
  return 'audience'
}

function readBody(body: Record<string, Relaxed>, fromUrl: Kind | null): Reading {
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
    if (text === null || text === '' || text.length > 40) unread.push(`${field} could not be read: ${describe(value)} is not a date.`)
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
  if (limit !== undefined)
    reading.categoryLimit = integerOf(limit, 'limit', REPORT_LIMITS.categoryLimit.min, REPORT_LIMITS.categoryLimit.max, unread) ?? undefined

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
    reading.audienceRowsLimit =
      integerOf(rowsLimit, 'audience_rows_limit', REPORT_LIMITS.audienceRowsLimit.min, REPORT_LIMITS.audienceRowsLimit.max, unread) ?? undefined

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

/* ---------- a web-UI link ---------- */

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

function readUrl(text: string): Reading {
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

/* ---------- onto the base ---------- */

function linesOf(chartLines: string[] | undefined, breakdown: string[], unread: string[]): LineSelection {
  if (chartLines === undefined || breakdown.length === 0) return defaultDefinitionParts.lines
  const includeTotal = chartLines.includes(TOTAL_LINE)
  const values: string[] = []
  for (const line of chartLines) {
    if (line === TOTAL_LINE) continue
    const parts = line.split(LINE_SEPARATOR).length
    if (parts !== breakdown.length) {
      unread.push(
        `The chart line "${line.split(LINE_SEPARATOR).join(' / ')}" has ${parts} value${parts === 1 ? '' : 's'} but the breakdown has ${breakdown.length} key${breakdown.length === 1 ? '' : 's'}; it was left out.`,
      )
      continue
    }
    if (line.length > 2_000) {
      unread.push('A chart line longer than 2,000 characters was left out.')
      continue
    }
    values.push(line)
  }
  if (values.length > MAX_CHART_LINES) {
    unread.push(`The request has ${values.length} chart lines; a chart takes ${MAX_CHART_LINES}, so the first ${MAX_CHART_LINES} were kept.`)
    values.length = MAX_CHART_LINES
  }
  return { mode: 'pick', values, includeTotal }
}

function assemble(reading: Reading, base: Partial<ReportDefinition>): PasteResult {
  const unread = [...reading.unread]
  const isAudience = reading.kind === 'audience'
  const required = (value: string | undefined, fallback: string | undefined, field: string, builderField: string): string => {
    if (value !== undefined) return value
    if (fallback !== undefined && fallback !== '') {
      unread.push(`The paste has no ${field}; the builder's ${builderField} was kept.`)
      return fallback
    }
    throw new AppError(
      'validation',
      `The pasted request names no ${field}, and the builder has none to keep. Pick the ${builderField} first, or paste a request with ${field}.`,
      { fields: { text: [`No ${field}`] } },
    )
  }

  const project = required(reading.project, base.project, 'project (project_name)', 'project')
  const report = required(reading.report, base.report, 'report (slicer_name)', 'report')
  const start = required(reading.start, base.dates?.start, 'start date (start_date)', 'start date')
  const end = required(reading.end, base.dates?.end, 'end date (end_date)', 'end date')
  const metrics = reading.metrics ?? (base.metrics !== undefined && base.metrics.length > 0 ? base.metrics : undefined)
  if (metrics === undefined) {
    throw new AppError(
      'validation',
      `The pasted ${isAudience ? 'audience request names no metric for the chart' : 'request names no metric (data_field)'}, and the builder has none to keep. Pick a metric first.`,
      { fields: { text: ['No metric'] } },
    )
  }
  if (reading.metrics === undefined && !isAudience) unread.push("The paste names no metric; the builder's metrics were kept.")

  const baseAudience = base.audience ?? defaultDefinitionParts.audience
  const chartPart = isAudience
    ? {
        granularity: base.granularity ?? defaultDefinitionParts.granularity,
        categoryLimit: base.categoryLimit ?? defaultDefinitionParts.categoryLimit,
        breakdown: base.breakdown ?? [],
        lines: base.lines ?? defaultDefinitionParts.lines,
        metricConditions: base.metricConditions ?? [],
        metricConditionLogic: base.metricConditionLogic ?? '',
        sort: base.sort ?? [],
      }
    : {
        granularity: reading.granularity ?? defaultDefinitionParts.granularity,
        categoryLimit: reading.categoryLimit ?? defaultDefinitionParts.categoryLimit,
        breakdown: reading.breakdown ?? [],
        lines: linesOf(reading.chartLines, reading.breakdown ?? [], unread),
        metricConditions: reading.metricConditions,
        metricConditionLogic: reading.metricConditionLogic ?? '',
        sort: reading.sort,
      }
  if (reading.filters.length > MAX_FILTERS) {
    unread.push(`The request has ${reading.filters.length} filters; the builder takes ${MAX_FILTERS}, so the first ${MAX_FILTERS} were kept.`)
    reading.filters.length = MAX_FILTERS
  }

  const candidate: ReportDefinition = {
    project,
    report,
    dates: { start, end },
    timezone: reading.timezone ?? base.timezone ?? defaultDefinitionParts.timezone,
    metrics,
    ...chartPart,
    filters: reading.filters,
    filterLogic: reading.filterLogic ?? '',
    comparison: base.comparison ?? defaultDefinitionParts.comparison,
    chart: base.chart ?? defaultDefinitionParts.chart,
    audience: isAudience
      ? {
          source: reading.audienceSource === undefined ? baseAudience.source : reading.audienceSource,
          rowsLimit: reading.audienceRowsLimit ?? baseAudience.rowsLimit,
          breakdown: reading.breakdown ?? [],
        }
      : baseAudience,
  }
  const checked = reportDefinitionSchema.safeParse(candidate)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw new AppError(
      'validation',
      `The pasted request could not become a report: ${issue?.path.join('.') ?? 'definition'}: ${issue?.message ?? 'invalid'}.`,
      { fields: { text: [issue?.message ?? 'invalid'] } },
    )
  }
  return { definition: checked.data, unread }
}
