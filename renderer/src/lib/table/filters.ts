import type { ColumnKind } from './types'

export type Predicate = (text: string) => boolean

const RANGE = /^(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)$/
const COMPARISON = /^(>=|<=|>|<|=|!=)\s*(-?\d+(?:\.\d+)?)$/

function compare(operator: string, value: number, bound: number): boolean {
  switch (operator) {
    case '>':
      return value > bound
    case '>=':
      return value >= bound
    case '<':
      return value < bound
    case '<=':
      return value <= bound
    case '!=':
      return value !== bound
    default:
      return value === bound
  }
}

/**
 * Turns one column filter into a test on that column's lowercase text: `yes`/`no` for booleans,
 * `>10`, `<=5`, `!=3` or `10..20` for numbers, and "contains" for everything else.
 */
export function filterPredicate(kind: ColumnKind, raw: string): Predicate | null {
  const filter = raw.trim().toLowerCase()
  if (filter === '') return null
  if (kind === 'boolean') {
    const wanted = ['yes', 'true', '1', 'on'].includes(filter) ? 'yes' : ['no', 'false', '0', 'off'].includes(filter) ? 'no' : null
    return wanted === null ? (text) => text.includes(filter) : (text) => text === wanted
  }
  if (kind === 'number') {
    const range = RANGE.exec(filter)
    if (range) {
      const low = Number(range[1])
      const high = Number(range[2])
      return (text) => text !== '' && Number(text) >= low && Number(text) <= high
    }
    const comparison = COMPARISON.exec(filter)
    if (comparison) {
      const operator = comparison[1] as string
      const bound = Number(comparison[2])
      return (text) => text !== '' && compare(operator, Number(text), bound)
    }
  }
  return (text) => text.includes(filter)
}
