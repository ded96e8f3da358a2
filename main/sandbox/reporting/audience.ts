import { hoursOf } from '../data/hours'
import { groupRecords } from './aggregate'
import type { ReportContext } from './context'
import { formatDay } from './dates'
import { badRequest } from './errors'
import { AUDIENCE_ROWS_LIMIT, audienceSchema, parseBody } from './request'
import { accessorOrFail, resolveScope } from './scope'
import { checkSplitBy } from './time-series'

export interface AudienceSource {
  name: string
  description: string
  annotation: string
  /** Members are counted as runs of this many user ids, so each source gives its own numbers. */
  usersPerMember: number
}

/** `info.audience_sources`; `audience_key` picks one, the first by default. */
export const AUDIENCE_SOURCES: readonly AudienceSource[] = [
  {
    name: 'users',
    description: 'Unique users (first-party id)',
    annotation: 'Counted exactly up to audience_rows_limit records, estimated beyond.',
    usersPerMember: 1,
  },
  {
    name: 'households',
    description: 'Unique households (users grouped by address)',
    annotation: 'Four users to a household in the demo data.',
    usersPerMember: 4,
  },
]

function audienceSource(key: string | undefined): AudienceSource {
  const first = AUDIENCE_SOURCES[0] as AudienceSource
  if (key === undefined) return first
  const source = AUDIENCE_SOURCES.find((candidate) => candidate.name === key)
  if (!source)
    throw badRequest(
      `Invalid parameter audience_key: unknown audience source '${key}'; use one of ${AUDIENCE_SOURCES.map((candidate) => candidate.name).join(', ')}`,
    )
  return source
}

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
  const source = audienceSource(body.audience_key)
  const scope = resolveScope(context, body)
  const splits = body.split_by.map((name, index) => accessorOrFail(context, name, scope.range, `split_by[${index}]`))
  const facts = context.facts
  const pool = Math.ceil(facts.userPool / source.usersPerMember)
  const memberOf = (record: number): number => Math.floor((facts.user[record] as number) / source.usersPerMember)
  const measure = `unique_${source.name}`
  const found = scope.records.length
  const limit = body.audience_rows_limit ?? AUDIENCE_ROWS_LIMIT.default
  const sample = evenSample(scope.records, limit)
  const compressed = sample.length < found
  const scale = found === 0 ? 1 : found / Math.max(1, sample.length)
  const estimate = (distinct: number): number => (compressed ? Math.min(pool, Math.round(distinct * scale)) : distinct)

  const seenDays = new Set<number>()
  const seenMembers = new Uint8Array(pool)
  let distinctTotal = 0
  for (const record of sample) {
    const member = memberOf(record)
    if (seenMembers[member] === 0) {
      seenMembers[member] = 1
      distinctTotal++
    }
  }
  for (const hour of hoursOf(facts, scope.records)) seenDays.add(Math.floor((hour + scope.range.timezone) / 24))

  const total: Record<string, unknown> = {
    dates: [...seenDays].sort((a, b) => a - b).map(formatDay),
    data: [{ name: measure, value: estimate(distinctTotal) }],
    records_found: found,
  }
  if (compressed) total['confidence_range'] = confidenceRange(sample.length, found)

  const rows: Array<Record<string, unknown>> = []
  if (splits.length > 0) {
    const grouping = groupRecords(sample, splits)
    // Distinct (group, member) pairs: sort the packed pairs and count runs.
    const pairs = new Float64Array(sample.length)
    const sizes = new Int32Array(grouping.count)
    for (let index = 0; index < sample.length; index++) {
      const group = grouping.groupOf[index] as number
      pairs[index] = group * pool + memberOf(sample[index] as number)
      sizes[group] = (sizes[group] as number) + 1
    }
    pairs.sort()
    const distinct = new Int32Array(grouping.count)
    for (let index = 0; index < pairs.length; index++) {
      if (index === 0 || pairs[index] !== pairs[index - 1]) {
        const group = Math.floor((pairs[index] as number) / pool)
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
        data: [{ name: measure, value: estimate(distinct[group] as number) }],
      }
      if (compressed) row['confidence_range'] = confidenceRange(sizes[group] as number, Math.round((sizes[group] as number) * scale))
      rows.push(row)
    }
  }
  return { status: 'success', total, rows }
}
