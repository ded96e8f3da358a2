import type { ChangeRecord } from '../bulk/apply-types'
import type { PlannedRow } from '../bulk/plan'
import { AppError } from '../errors'
import { kindSpec } from '../entities/kinds'

/**
 * The inverse of recorded changes, as plan rows for the same apply. An update goes back to its
 * previous values, guarded: the row's `before` is the recorded `after`, so an entity changed
 * since becomes a conflict, never overwritten. A delete becomes a create of the recorded
 * entity without its id and read-only fields (the platform gives a new id). A create becomes
 * a delete. Writes that failed or conflicted changed nothing and have nothing to revert. Each
 * row names the change it undoes (`reverts`), recorded with its write: a change a revert undid
 * is not reverted twice (a deleted entity would be created twice), until that revert is itself
 * reverted, which redoes the change.
 */

export interface RevertPlan {
  kind: string
  title: string
  rows: PlannedRow[]
  problems: string[]
}

function readOnlyFields(kind: string): Set<string> {
  return new Set(['id', ...(kindSpec(kind)?.fields ?? []).filter((field) => field.readOnly === true).map((field) => field.name)])
}

const same = (first: unknown, second: unknown): boolean => JSON.stringify(first) === JSON.stringify(second)

/**
 * The changes an applied revert undid and no later revert redid, from `records` oldest first: the
 * walk goes newest first, so a revert is seen before the change it undid, and a revert undone
 * by a later one undoes nothing.
 */
export function undoneChanges(records: readonly ChangeRecord[]): Set<string> {
  const undone = new Set<string>()
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index] as ChangeRecord
    if (record.outcome === 'applied' && record.reverts !== undefined && !undone.has(record.change)) undone.add(record.reverts)
  }
  return undone
}

/** One record's inverse row, or the sentence saying why it has none. */
function inverse(record: ChangeRecord, row: number, undone: ReadonlySet<string>): PlannedRow | string {
  const name = `change ${record.change.slice(0, 8)} (${record.kind} ${String(record.id ?? 'new')})`
  if (record.outcome !== 'applied') return `The ${name} was not applied (${record.outcome}), so there is nothing to revert.`
  if (undone.has(record.change)) return `The ${name} was reverted already, so there is nothing to revert.`
  const base = { row, errors: [], reverts: record.change }
  if (record.before === null && record.after !== null) {
    if (record.id === null) return `The ${name} has no id to delete.`
    const changes: PlannedRow['changes'] = Object.fromEntries(Object.entries(record.after).map(([field, value]) => [field, [value, null]]))
    return { ...base, action: 'delete', id: record.id, changes, entity: null, before: record.after }
  }
  if (record.before !== null && record.after === null) {
    const skipped = readOnlyFields(record.kind)
    const entity = Object.fromEntries(Object.entries(record.before).filter(([field]) => !skipped.has(field)))
    const changes: PlannedRow['changes'] = Object.fromEntries(Object.entries(entity).map(([field, value]) => [field, [null, value]]))
    return { ...base, action: 'create', id: null, changes, entity, before: null }
  }
  if (record.before !== null && record.after !== null) {
    if (record.id === null) return `The ${name} has no id to update.`
    const changes: PlannedRow['changes'] = {}
    for (const field of new Set([...Object.keys(record.before), ...Object.keys(record.after)])) {
      if (field === 'id' || same(record.before[field], record.after[field])) continue
      changes[field] = [record.after[field] ?? null, record.before[field] ?? null]
    }
    if (Object.keys(changes).length === 0) return `The ${name} changed no field, so there is nothing to revert.`
    return { ...base, action: 'update', id: record.id, changes, entity: { ...record.after, ...record.before, id: record.id }, before: record.after }
  }
  return `The ${name} holds neither a before nor an after; it cannot be reverted.`
}

/** `records` oldest first, as the log holds them; the rows undo the newest change first. */
export function planRevert(records: readonly ChangeRecord[], target: { change: string } | { batch: string }): RevertPlan {
  const chosen = 'change' in target ? records.filter((record) => record.change === target.change) : records.filter((record) => record.batch === target.batch)
  if (chosen.length === 0) {
    throw new AppError(
      'not_found',
      'change' in target
        ? `No change ${target.change} is in the change log of this connection; list the changes to find its id.`
        : `No batch ${target.batch} is in the change log of this connection; list the changes to find its id.`,
    )
  }
  const first = chosen[0] as ChangeRecord
  const kinds = new Set(chosen.map((record) => record.kind))
  const problems: string[] = []
  if (kinds.size > 1) problems.push(`The batch changed several kinds (${[...kinds].join(', ')}); only its ${first.kind} are reverted here.`)
  const rows: PlannedRow[] = []
  const undone = undoneChanges(records)
  for (const record of [...chosen].reverse()) {
    if (record.kind !== first.kind) continue
    const row = inverse(record, rows.length + 1, undone)
    if (typeof row === 'string') problems.push(row)
    else rows.push(row)
  }
  if (rows.some((row) => row.action === 'create')) {
    problems.push(
      'Deleted entities are created again with new ids: the platform gives ids, so anything that pointed at the old id must be pointed at the new one.',
    )
  }
  const what = 'change' in target ? `change ${target.change.slice(0, 8)}` : (first.title ?? `batch ${target.batch.slice(0, 8)}`)
  return { kind: first.kind, title: `Revert of ${what}`, rows, problems }
}
