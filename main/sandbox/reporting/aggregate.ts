import type { FactTable } from '../data/facts'
import { accumulate } from './fields'
import type { BaseMetric, DataField } from './fields'
import type { KeyAccessor } from './keys'

/** Records grouped by a list of key fields: one group per distinct combination of codes. */
export interface Grouping {
  count: number
  /** Group of each listed record (same order as the record list). */
  groupOf: Int32Array
  /** Per key, the code of each group. */
  keyCodes: Int32Array[]
}

/** Below this many possible combinations a flat lookup table beats a Map. */
const DENSE_LIMIT = 1 << 22

export function groupRecords(records: Int32Array, keys: readonly KeyAccessor[]): Grouping {
  const groupOf = new Int32Array(records.length)
  if (keys.length === 0) return { count: 1, groupOf, keyCodes: [] }
  let combinations = 1
  for (const key of keys) combinations *= Math.max(1, key.cardinality)
  // Index (into `records`) of the first record of each group; typed, as there may be millions.
  const firstRecordOf = new Int32Array(Math.min(records.length, combinations))
  let groups = 0

  const only = keys.length === 1 ? keys[0] : undefined
  if (only?.column && combinations <= DENSE_LIMIT) {
    // The common case (one stored key): read codes straight from the fact column.
    const column = only.column
    const lookup = new Int32Array(combinations).fill(-1)
    for (let index = 0; index < records.length; index++) {
      const code = column[records[index] as number] as number
      let group = lookup[code] as number
      if (group < 0) {
        group = groups++
        lookup[code] = group
        firstRecordOf[group] = index
      }
      groupOf[index] = group
    }
    const codes = new Int32Array(groups)
    for (let group = 0; group < groups; group++) codes[group] = column[records[firstRecordOf[group] as number] as number] as number
    return { count: groups, groupOf, keyCodes: [codes] }
  }

  const columns = keys.map((key) => key.codes(records))
  const compositeAt = (index: number): number => {
    let composite = 0
    for (let key = 0; key < keys.length; key++) composite = composite * (keys[key] as KeyAccessor).cardinality + ((columns[key] as Int32Array)[index] as number)
    return composite
  }
  if (combinations <= DENSE_LIMIT) {
    const lookup = new Int32Array(combinations).fill(-1)
    for (let index = 0; index < records.length; index++) {
      const composite = compositeAt(index)
      let group = lookup[composite] as number
      if (group < 0) {
        group = groups++
        lookup[composite] = group
        firstRecordOf[group] = index
      }
      groupOf[index] = group
    }
  } else if (combinations * Math.max(1, records.length) <= 2 ** 53) {
    // Too many combinations for a table: sort (combination, index) pairs packed in one number
    // with the native numeric sort, then number the runs. Far leaner than a Map of millions.
    const count = records.length
    const packed = new Float64Array(count)
    for (let index = 0; index < count; index++) packed[index] = compositeAt(index) * count + index
    packed.sort()
    let previous = -1
    for (let position = 0; position < count; position++) {
      const value = packed[position] as number
      const index = value % count
      const composite = (value - index) / count
      if (composite !== previous) {
        previous = composite
        firstRecordOf[groups++] = index
      }
      groupOf[index] = groups - 1
    }
  } else {
    // Beyond 2^53 packed values would collide; text keys are slow but exact.
    const lookup = new Map<string, number>()
    for (let index = 0; index < records.length; index++) {
      const composite = columns.map((column) => column[index]).join(',')
      let group = lookup.get(composite)
      if (group === undefined) {
        group = groups++
        lookup.set(composite, group)
        firstRecordOf[group] = index
      }
      groupOf[index] = group
    }
  }
  const keyCodes = columns.map((column) => {
    const codes = new Int32Array(groups)
    for (let group = 0; group < groups; group++) codes[group] = column[firstRecordOf[group] as number] as number
    return codes
  })
  return { count: groups, groupOf, keyCodes }
}

/** Base sums per group for the metrics a request needs. */
export class GroupSums {
  private readonly sums = new Map<BaseMetric, Float64Array>()

  constructor(facts: FactTable, records: Int32Array, grouping: Grouping, metrics: Iterable<BaseMetric>) {
    for (const metric of metrics) {
      if (this.sums.has(metric)) continue
      const sums = new Float64Array(grouping.count)
      accumulate(facts, metric, records, grouping.groupOf, sums)
      this.sums.set(metric, sums)
    }
  }

  sum(metric: BaseMetric, group: number): number {
    return this.sums.get(metric)?.[group] ?? 0
  }

  value(field: DataField, group: number): number {
    const [first, second] = field.inputs
    return field.compute(first ? this.sum(first, group) : 0, second ? this.sum(second, group) : 0)
  }

  /** A field over several groups together: sums first, then the formula. */
  combined(field: DataField, groups: Iterable<number>): number {
    const [firstInput, secondInput] = field.inputs
    const first = firstInput ? this.sums.get(firstInput) : undefined
    const second = secondInput ? this.sums.get(secondInput) : undefined
    let firstTotal = 0
    let secondTotal = 0
    for (const group of groups) {
      firstTotal += first?.[group] ?? 0
      secondTotal += second?.[group] ?? 0
    }
    return field.compute(firstTotal, secondTotal)
  }
}

export function metricsOf(fields: Iterable<DataField>): Set<BaseMetric> {
  const metrics = new Set<BaseMetric>()
  for (const field of fields) for (const input of field.inputs) metrics.add(input)
  return metrics
}
