import { hoursOf } from '../data/facts'
import { groupRecords } from './aggregate'
import type { ReportContext } from './context'
import { formatDay } from './dates'
import { audienceSchema, parseBody } from './request'
import { accessorOrFail, resolveScope } from './scope'
import { checkSplitBy } from './time-series'

export const DEFAULT_AUDIENCE_ROWS_LIMIT = 1_000_000

/**
 * Picks `limit` of `count` records spread evenly (deterministic, unlike a random sample), the
 * way a compressed dataset keeps a fixed share of rows.
 */
function evenSample(records: Int32Array, limit: number): Int32Array {
  if (limit >= records.length) return records
  const sample = new Int32Array(limit)
  for (let index = 0; index < limit; index++) sample[index] = records[Math.floor((index * records.length) / limit)] as number
  return sample
}

/** Half-width of a 95% interval for a share estimated from `processed` of `found` records, in percent. */
function confidenceRange(processed: number, found: number): number {
  if (processed <= 0) return 100
  const value = 196 * Math.sqrt(Math.max(0, 1 - processed / found) / processed)
  return Math.round(Math.min(100, value) * 100) / 100
}

export function audience(context: ReportContext, raw: unknown): Record<string, unknown> {
  const body = parseBody(audienceSchema, raw)
  checkSplitBy(body.split_by)
  const scope = resolveScope(context, body)
  const splits = body.split_by.map((name, index) => accessorOrFail(context, name, scope.range, `split_by[${index}]`))
  const facts = context.facts
  const found = scope.records.length
  const limit = body.audience_rows_limit ?? DEFAULT_AUDIENCE_ROWS_LIMIT
  const sample = evenSample(scope.records, limit)
  const compressed = sample.length < found
  const scale = found === 0 ? 1 : found / Math.max(1, sample.length)
  const estimate = (distinct: number): number => (compressed ? Math.min(facts.userPool, Math.round(distinct * scale)) : distinct)

  const seenDays = new Set<number>()
  const seenUsers = new Uint8Array(facts.userPool)
  let distinctTotal = 0
  for (const record of sample) {
    const user = facts.user[record] as number
    if (seenUsers[user] === 0) {
      seenUsers[user] = 1
      distinctTotal++
    }
  }
  for (const hour of hoursOf(facts, scope.records)) seenDays.add(Math.floor((hour + scope.range.timezone) / 24))

  const total: Record<string, unknown> = {
    dates: [...seenDays].sort((a, b) => a - b).map(formatDay),
    data: [{ name: 'unique_users', value: estimate(distinctTotal) }],
    records_found: found,
  }
  if (compressed) total['confidence_range'] = confidenceRange(sample.length, found)

  const rows: Array<Record<string, unknown>> = []
  if (splits.length > 0) {
    const grouping = groupRecords(sample, splits)
    // Distinct (group, user) pairs: sort the packed pairs and count runs.
    const pairs = new Float64Array(sample.length)
    const sizes = new Int32Array(grouping.count)
    for (let index = 0; index < sample.length; index++) {
      const group = grouping.groupOf[index] as number
      pairs[index] = group * facts.userPool + (facts.user[sample[index] as number] as number)
      sizes[group] = (sizes[group] as number) + 1
    }
    pairs.sort()
    const distinct = new Int32Array(grouping.count)
    for (let index = 0; index < pairs.length; index++) {
      if (index === 0 || pairs[index] !== pairs[index - 1]) {
        const group = Math.floor((pairs[index] as number) / facts.userPool)
        distinct[group] = (distinct[group] as number) + 1
      }
    }
    const order = Array.from({ length: grouping.count }, (_, group) => group).sort((left, right) => {
      const difference = (distinct[right] as number) - (distinct[left] as number)
      if (difference !== 0) return difference
      for (const codes of grouping.keyCodes) {
        const byCode = (codes[left] as number) - (codes[right] as number)
        if (byCode !== 0) return byCode
      }
      return 0
    })
    for (const group of order) {
      const row: Record<string, unknown> = {
        name: splits.map((split, position) => split.text((grouping.keyCodes[position] as Int32Array)[group] as number)),
        data: [{ name: 'unique_users', value: estimate(distinct[group] as number) }],
      }
      if (compressed) row['confidence_range'] = confidenceRange(sizes[group] as number, Math.round((sizes[group] as number) * scale))
      rows.push(row)
    }
  }
  return { status: 'success', total, rows }
}
