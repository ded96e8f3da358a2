import { performance } from 'node:perf_hooks'
import type { Entity } from '@contract'
import { kindSpec } from '../../main/services/entities/kinds'
import { planImport } from '../../main/services/bulk/plan'
import { readImportTable } from '../../main/services/bulk/read-table'
import { createTargets, ensure } from './targets'

/**
 * Issue 23: planning an import of a 10,000-row brands file against a 100,000-entity mirror —
 * the file read from 64 KB chunks (as from disk), columns mapped, cells typed, rows matched and
 * diffed. Target: ≤ 2 s (the median of the rounds); fails if missed. Baseline, in the same run:
 * the least any planner does, a bare split of the text into cells and a Map of the mirror by
 * external_id with one lookup per row.
 */

const MIRROR = 100_000
const ROWS = 10_000
const ROUNDS = 5
const TARGET_MS = 2_000

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

async function* chunks(text: string): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text)
  for (let start = 0; start < bytes.length; start += 64 * 1024) yield bytes.subarray(start, start + 64 * 1024)
}

export default async function bench(): Promise<void> {
  const targets = createTargets()
  const spec = kindSpec('brands')
  ensure(spec !== undefined, 'brands has no spec')
  const mirror: Entity[] = Array.from({ length: MIRROR }, (_, index) => ({
    id: index + 1,
    name: `Brand ${index}`,
    is_open_auction_allowed: index % 2 === 0,
    is_pmp_allowed: false,
    advertiser_domains: [`brand-${index}.example`],
    external_id: `BRD-${index}`,
  }))
  // Rows spread over the mirror: 4 in 10 change a field, 4 are unchanged, 1 is a create, 1 has an error.
  const lines = Array.from({ length: ROWS }, (_, row) => {
    const index = (row * 7919) % MIRROR
    const open = index % 2 === 0
    switch (row % 10) {
      case 8:
        return `NEW-${row},New brand ${row},true,false,"new-${row}.example;shop.new-${row}.example"`
      case 9:
        return `BRD-${index},Brand ${index},maybe,false,brand-${index}.example`
      default:
        return `BRD-${index},Brand ${index}${row % 10 < 4 ? ' renamed' : ''},${open},false,brand-${index}.example`
    }
  })
  const text = `external_id,name,is_open_auction_allowed,is_pmp_allowed,advertiser_domains\n${lines.join('\n')}\n`

  const planTimes: number[] = []
  const bareTimes: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now()
    const table = await readImportTable(chunks(text))
    const plan = planImport({ spec, table, existing: mirror })
    planTimes.push(performance.now() - started)
    ensure(plan.rows.length === ROWS, `the plan has ${plan.rows.length} rows, not ${ROWS}`)
    ensure(
      plan.counts.update === 4_000 && plan.counts.unchanged === 4_000 && plan.counts.create === 1_000 && plan.counts.error === 1_000,
      `unexpected counts ${JSON.stringify(plan.counts)}`,
    )

    started = performance.now()
    const byExternalId = new Map(mirror.map((entity) => [entity.external_id, entity]))
    let matched = 0
    for (const line of text.split('\n').slice(1)) if (byExternalId.has(line.split(',')[0])) matched++
    bareTimes.push(performance.now() - started)
    ensure(matched === 9_000, `the baseline matched ${matched} rows`)
  }
  targets.note('baseline: split the text, index the mirror (median)', median(bareTimes), 'ms')
  targets.check(`plan ${ROWS.toLocaleString('en-US')} rows vs ${MIRROR.toLocaleString('en-US')} entities (median)`, median(planTimes), 'ms', TARGET_MS, {
    atMost: true,
  })
  targets.verdict()
}
