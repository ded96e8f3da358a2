import type { KeyAccessor } from './keys'
import { evaluateVector } from './templates'
import type { TemplateNode } from './templates'

/** The spec's six modes, then the vendor's spellings (`not beginswith` and `not endswith` exist only in that spelling). */
export const MATCH_MODES = [
  'equals',
  'not equals',
  'contains',
  'not contains',
  'begins with',
  'ends with',
  'beginswith',
  'endswith',
  'not beginswith',
  'not endswith',
] as const
export type MatchMode = (typeof MATCH_MODES)[number]

/** The negative modes pass a value that matches none of the filter's values. */
function isNegative(mode: MatchMode): boolean {
  return mode.startsWith('not ')
}

export interface FilterSpec {
  name: string
  value: string[]
  match: MatchMode
  case_insensitive?: 0 | 1 | undefined
  search_mappings?: 0 | 1 | undefined
}

/** True when `text` matches any of the filter's values in the positive sense of its mode. */
export function positiveMatcher(filter: FilterSpec): (text: string) => boolean {
  const folded = filter.case_insensitive === 1
  const values = folded ? filter.value.map((value) => value.toLowerCase()) : filter.value
  const fold = folded ? (text: string) => text.toLowerCase() : (text: string) => text
  switch (filter.match) {
    case 'equals':
    case 'not equals': {
      const set = new Set(values)
      return (text) => set.has(fold(text))
    }
    case 'contains':
    case 'not contains':
      return (text) => {
        const subject = fold(text)
        return values.some((value) => subject.includes(value))
      }
    case 'begins with':
    case 'beginswith':
    case 'not beginswith':
      return (text) => {
        const subject = fold(text)
        return values.some((value) => subject.startsWith(value))
      }
    case 'ends with':
    case 'endswith':
    case 'not endswith':
      return (text) => {
        const subject = fold(text)
        return values.some((value) => subject.endsWith(value))
      }
  }
}

/**
 * 0/1 per dictionary code. Negative modes pass a value that matches none of the filter's
 * values; with search_mappings the mapping text counts as a second place to match.
 */
export function codeMask(accessor: KeyAccessor, filter: FilterSpec): Uint8Array {
  const matches = positiveMatcher(filter)
  const negative = isNegative(filter.match)
  const searchMappings = filter.search_mappings === 1 && accessor.hasMapping
  const mask = new Uint8Array(accessor.cardinality)
  for (let code = 0; code < accessor.cardinality; code++) {
    let hit = matches(accessor.text(code))
    if (!hit && searchMappings) {
      const mapping = accessor.mapping(code)
      hit = mapping !== null && matches(mapping)
    }
    mask[code] = hit !== negative ? 1 : 0
  }
  return mask
}

function recordMask(records: Int32Array, accessor: KeyAccessor, filter: FilterSpec): Uint8Array {
  const mask = codeMask(accessor, filter)
  const codes = accessor.codes(records)
  const result = new Uint8Array(records.length)
  for (let index = 0; index < records.length; index++) result[index] = mask[codes[index] as number] as number
  return result
}

/**
 * The records that pass the filters: all of them (AND) without a template, or the template's
 * combination of the per-filter results.
 */
export function filterRecords(
  records: Int32Array,
  filters: ReadonlyArray<{ accessor: KeyAccessor; filter: FilterSpec }>,
  template: TemplateNode | null,
): Int32Array {
  if (filters.length === 0) return records
  let pass: Uint8Array
  if (template) {
    const leaves = filters.map(({ accessor, filter }) => recordMask(records, accessor, filter))
    pass = evaluateVector(template, leaves, records.length)
  } else {
    pass = new Uint8Array(records.length).fill(1)
    for (const { accessor, filter } of filters) {
      const mask = recordMask(records, accessor, filter)
      for (let index = 0; index < records.length; index++) pass[index] = (pass[index] as number) & (mask[index] as number)
    }
  }
  let kept = 0
  for (let index = 0; index < records.length; index++) kept += pass[index] as number
  const result = new Int32Array(kept)
  let next = 0
  for (let index = 0; index < records.length; index++) if (pass[index] === 1) result[next++] = records[index] as number
  return result
}
