import { conditionMatches, type FilterMatch, type MetricCondition } from '@contract'
import { fullGranularity, TIME_GRANULARITIES } from '../../../../common/granularity'

/*
 * The spellings the platform's docs, the vendor's scripts and the web UI use for one thing the
 * builder holds: filter matches, data-filter comparisons and time keys. Kept as tables apart from
 * the readers so a newly seen spelling is one line here.
 */

/** The platform's time keys, finest first (an export's finest one becomes the chart's x-axis). */
export const TIME_KEYS = TIME_GRANULARITIES

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

/** `day` → `granularity_day`; full names and key fields as they are (the rule presets are read with too). */
export const granularityOf = fullGranularity

export const isTimeKey = (key: string): boolean => TIME_KEYS.some((time) => `granularity_${time}` === key)
