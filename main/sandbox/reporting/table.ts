import { badRequest } from './errors'
import { findDataField, presentValue } from './fields'
import type { DataField } from './fields'
import type { KeyAccessor } from './keys'
import type { ParsedDataFilter, DataFilterOperator, ParsedOrderTerm } from './request'
import { templateOrNull } from './scope'
import { evaluateScalar } from './templates'
import type { TemplateNode } from './templates'

/** Rows of a result (groups of an export, x values of a time series) as sorting and data filters see them. */
export interface RowSource {
  count: number
  keys: readonly KeyAccessor[]
  value(field: DataField, position: number): number
  code(keyIndex: number, position: number): number
}

export interface DataFilters {
  items: Array<{ field: DataField; match: DataFilterOperator; value: number }>
  template: TemplateNode | null
}

export function resolveDataFilters(user: string, filters: readonly ParsedDataFilter[] | undefined, template: string | undefined): DataFilters {
  const items = (filters ?? []).map((filter, index) => {
    const field = findDataField(filter.name, user)
    if (!field) throw badRequest(`Invalid parameter data_filters[${index}].name: unknown data field '${filter.name}'`)
    return { field, match: filter.match, value: filter.value }
  })
  return { items, template: templateOrNull(template, items.length, 'data_filter_template') }
}

function compare(left: number, operator: DataFilterOperator, right: number): boolean {
  switch (operator) {
    case '>':
      return left > right
    case '>=':
      return left >= right
    case '<':
      return left < right
    case '<=':
      return left <= right
    case '=':
      return left === right
    case '!=':
      return left !== right
  }
}

/** Whether one aggregated row passes; values are compared as the API shows them (rounded). */
export function passesDataFilters(filters: DataFilters, valueOf: (field: DataField) => number): boolean {
  if (filters.items.length === 0) return true
  const test = (position: number): boolean => {
    const item = filters.items[position - 1]
    return item ? compare(presentValue(item.field, valueOf(item.field)), item.match, item.value) : false
  }
  if (filters.template) return evaluateScalar(filters.template, test)
  for (let position = 1; position <= filters.items.length; position++) if (!test(position)) return false
  return true
}

export type SortTerm = { kind: 'field'; field: DataField; descending: boolean } | { kind: 'key'; keyIndex: number; byMapping: boolean; descending: boolean }

/** order_by names a data field or one of the row's key fields. */
export function resolveOrder(user: string, orderBy: ParsedOrderTerm | ParsedOrderTerm[] | undefined, keys: readonly KeyAccessor[]): SortTerm[] {
  if (orderBy === undefined) return []
  const terms = Array.isArray(orderBy) ? orderBy : [orderBy]
  return terms.map((term, index): SortTerm => {
    const descending = term.direction === 'DESC'
    const keyIndex = keys.findIndex((key) => key.name === term.name)
    if (keyIndex >= 0) return { kind: 'key', keyIndex, byMapping: term.mapping === 1, descending }
    const field = findDataField(term.name, user)
    const parameter = Array.isArray(orderBy) ? `order_by[${index}].name` : 'order_by.name'
    if (!field) throw badRequest(`Invalid parameter ${parameter}: '${term.name}' is neither a data field nor a key field of this request`)
    return { kind: 'field', field, descending }
  })
}

/** Rank of each code in the key's natural (or mapping) order; only codes that occur are ranked. */
function keyRanks(source: RowSource, keyIndex: number, positions: Int32Array, byMapping: boolean): Int32Array {
  const key = source.keys[keyIndex] as KeyAccessor
  const ranks = new Int32Array(key.cardinality)
  const seen = new Uint8Array(key.cardinality)
  const codes: number[] = []
  for (const position of positions) {
    const code = source.code(keyIndex, position)
    if (seen[code] === 0) {
      seen[code] = 1
      codes.push(code)
    }
  }
  if (byMapping && key.hasMapping) {
    const texts = new Map(codes.map((code) => [code, key.mapping(code) ?? '']))
    codes.sort((left, right) => {
      const a = texts.get(left) ?? ''
      const b = texts.get(right) ?? ''
      return a < b ? -1 : a > b ? 1 : key.compare(left, right)
    })
  } else {
    codes.sort((left, right) => key.compare(left, right))
  }
  codes.forEach((code, rank) => {
    ranks[code] = rank
  })
  return ranks
}

const EXACT = 2 ** 53

/**
 * Sorts numbers that each pack a sort key and an index (`key * count + index`) with the native
 * numeric sort, which is much faster and leaner than a comparator sort over millions of rows.
 */
function packedOrder(count: number, keyOf: (index: number) => number, mapIndex: (index: number) => number, scratch?: Float64Array): Int32Array {
  const packed = scratch ?? new Float64Array(count)
  for (let index = 0; index < count; index++) packed[index] = keyOf(index) * count + index
  packed.sort()
  const order = new Int32Array(count)
  for (let index = 0; index < count; index++) order[index] = mapIndex((packed[index] as number) % count)
  return order
}

/** Positions in the keys' natural order (by codes, first key first): the tie-break of every sort. */
function naturalOrder(source: RowSource, positions: Int32Array): Int32Array {
  const count = positions.length
  const only = source.keys.length === 1 ? source.keys[0] : undefined
  if (only) {
    // One key: every row has its own code, so a slot per code orders them in linear time.
    const slots = new Int32Array(only.cardinality).fill(-1)
    for (const position of positions) slots[source.code(0, position)] = position
    const order = new Int32Array(count)
    let next = 0
    for (const position of slots) if (position >= 0) order[next++] = position
    return order
  }
  let radix = 1
  for (const key of source.keys) radix *= Math.max(1, key.cardinality)
  if (radix * Math.max(1, count) <= EXACT) {
    return packedOrder(
      count,
      (index) => {
        let composite = 0
        source.keys.forEach((key, keyIndex) => {
          composite = composite * Math.max(1, key.cardinality) + source.code(keyIndex, positions[index] as number)
        })
        return composite
      },
      (index) => positions[index] as number,
    )
  }
  return positions.slice().sort((left, right) => {
    for (let keyIndex = 0; keyIndex < source.keys.length; keyIndex++) {
      const difference = source.code(keyIndex, left) - source.code(keyIndex, right)
      if (difference !== 0) return difference
    }
    return left - right
  })
}

/** Dense ranks (0..distinct-1) of one sort term for each position of `natural`. */
function termRanks(source: RowSource, natural: Int32Array, term: SortTerm, scratch: Float64Array): { ranks: Int32Array; distinct: number } {
  const count = natural.length
  const ranks = new Int32Array(count)
  let distinct: number
  if (term.kind === 'field') {
    // Sorted distinct values go into the scratch buffer; each row's rank is found by binary
    // search, recomputing its value rather than holding a second array of millions of values.
    const valueAt = (index: number): number => presentValue(term.field, source.value(term.field, natural[index] as number))
    const sorted = scratch
    for (let index = 0; index < count; index++) sorted[index] = valueAt(index)
    sorted.sort()
    distinct = 0
    for (let index = 0; index < count; index++) if (index === 0 || sorted[index] !== sorted[distinct - 1]) sorted[distinct++] = sorted[index] as number
    for (let index = 0; index < count; index++) {
      const value = valueAt(index)
      let low = 0
      let high = distinct - 1
      while (low < high) {
        const middle = (low + high) >>> 1
        if ((sorted[middle] as number) < value) low = middle + 1
        else high = middle
      }
      ranks[index] = low
    }
  } else {
    const codeRanks = keyRanks(source, term.keyIndex, natural, term.byMapping)
    distinct = 0
    for (let index = 0; index < count; index++) {
      const rank = codeRanks[source.code(term.keyIndex, natural[index] as number)] as number
      ranks[index] = rank
      distinct = Math.max(distinct, rank + 1)
    }
  }
  if (term.descending) for (let index = 0; index < count; index++) ranks[index] = distinct - 1 - (ranks[index] as number)
  return { ranks, distinct }
}

/**
 * Sorts row positions by the terms; equal rows stay in the keys' natural order, so every
 * result has one deterministic order.
 */
export function sortRows(source: RowSource, positions: Int32Array, terms: readonly SortTerm[]): Int32Array {
  const natural = naturalOrder(source, positions)
  if (terms.length === 0) return natural
  const count = natural.length
  // One scratch buffer serves every term's values and then the packed keys: exports sort millions of rows.
  const scratch = new Float64Array(count)
  const columns = terms.map((term) => termRanks(source, natural, term, scratch))
  let span = Math.max(1, count)
  for (const column of columns) span *= Math.max(1, column.distinct)
  if (span <= EXACT) {
    return packedOrder(
      count,
      (index) => {
        let key = 0
        for (const column of columns) key = key * Math.max(1, column.distinct) + (column.ranks[index] as number)
        return key
      },
      (index) => natural[index] as number,
      scratch,
    )
  }
  const indexes = Int32Array.from({ length: count }, (_, index) => index)
  indexes.sort((left, right) => {
    for (const { ranks } of columns) {
      const difference = (ranks[left] as number) - (ranks[right] as number)
      if (difference !== 0) return difference
    }
    return left - right
  })
  for (let index = 0; index < count; index++) indexes[index] = natural[indexes[index] as number] as number
  return indexes
}
