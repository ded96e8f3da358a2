import { conditionMatches, filterMatches, type MetricCondition, type ReportFilter, type SortRule, type TimezoneRule } from '@contract'
import { Variable, type Relaxed } from '../relaxed-json'
import { conditionMatchOf, filterMatchOf } from './aliases'
import { MAX_CONDITION_VALUE_LENGTH, MAX_FILTER_VALUE_LENGTH, MAX_FILTER_VALUES, MAX_LISTED_NAMES, MAX_NAME_LENGTH, MAX_SORT_RULES, UTC_OFFSET } from './limits'

/*
 * Small readers for one field's value, shared by the request body and the web-UI link. Each
 * returns what it could read and adds a sentence to `unread` for what it could not, so one bad
 * value costs that value only, never the whole paste.
 */

export function describe(value: Relaxed): string {
  if (value instanceof Variable) return `the variable ${value.name}`
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

export function textOf(value: Relaxed): string | null {
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return null
}

export function nameOf(value: Relaxed, field: string, unread: string[]): string | null {
  const text = textOf(value)
  if (text === null || text === '') {
    unread.push(`${field} could not be read: ${describe(value)} is not a name.`)
    return null
  }
  if (text.length > MAX_NAME_LENGTH) {
    unread.push(`${field} could not be read: it is longer than ${MAX_NAME_LENGTH} characters.`)
    return null
  }
  return text
}

/** A list of names: an array, or one string (`split_by: "country"` appears in the docs' examples). */
export function namesOf(value: Relaxed, field: string, unread: string[]): string[] | null {
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

/** 1, true, "1", "true", True: the platform takes 0/1 and scripts send booleans. */
export function flagOf(value: Relaxed | undefined, field: string, unread: string[]): boolean {
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

export function integerOf(value: Relaxed, field: string, min: number, max: number, unread: string[]): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : NaN
  if (!Number.isInteger(number) || number < min || number > max) {
    unread.push(`${field} could not be read: ${describe(value)} is not a whole number from ${min} to ${max}.`)
    return null
  }
  return number
}

export function timezoneOf(value: Relaxed, field: string, unread: string[]): TimezoneRule | undefined {
  if (value === null) return { mode: 'report' }
  const offset = integerOf(typeof value === 'string' ? value.replace(/^\s*(utc|gmt)\s*/i, '') : value, field, UTC_OFFSET.min, UTC_OFFSET.max, unread)
  return offset === null ? undefined : { mode: 'fixed', offset }
}

export function readFilter(item: Relaxed, position: number, unread: string[], where = 'filters'): ReportFilter | null {
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
    else if (text.length > MAX_FILTER_VALUE_LENGTH)
      unread.push(`A value of the filter on ${key} is longer than ${MAX_FILTER_VALUE_LENGTH.toLocaleString('en-US')} characters and was left out.`)
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

export function readCondition(item: Relaxed, position: number, unread: string[]): MetricCondition | null {
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
  if (value === '' || value.length > MAX_CONDITION_VALUE_LENGTH) {
    unread.push(`The data filter on ${metric} was left out: its value ${item.value === undefined ? 'is missing' : describe(item.value)} is not a number.`)
    return null
  }
  return { metric, match, value }
}

export function readSort(value: Relaxed, unread: string[]): SortRule[] {
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

export function directionOf(value: Relaxed | undefined, field: string, unread: string[]): 'ASC' | 'DESC' {
  if (value === undefined || value === null) return 'ASC'
  const text = typeof value === 'string' ? value.trim().toLowerCase() : ''
  if (text === 'asc' || text === 'ascending') return 'ASC'
  if (text === 'desc' || text === 'descending') return 'DESC'
  unread.push(`${field} could not be read: ${describe(value)} is neither ASC nor DESC; ASC was taken.`)
  return 'ASC'
}
