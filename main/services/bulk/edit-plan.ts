import type { Entity, EntityField, EntityId, EntityKindSpec } from '@contract'
import { readCell } from './cells'
import { sameValue, type PlanAction, type PlannedRow } from './plan'

/**
 * A bulk edit's plan: one operation over picked entities of a kind (the rows the user checked,
 * or every row the current search and filters show: either way the ids the page sends). The
 * same `PlannedRow`s as an import, so one plan view and one apply serve both: per entity the
 * field-level changes, the mirror's copy as `before` (the lost-update guard compares with it)
 * and the whole merged entity to send (an update sends it all). The value is read through the
 * import's cell reader, so a bad value gets the same sentence as a bad cell, once for the plan.
 */

export type EditOperation =
  /** Sets a field to a value written as in an import cell (a list as `a;b`, a boolean as true/false); empty clears an optional field. */
  | { op: 'set'; field: string; value: string }
  /** Adds values to a list field (`advertiser_domains`, an agency's brands), written `a;b`. */
  | { op: 'add'; field: string; value: string }
  /** Removes values from a list field. */
  | { op: 'remove'; field: string; value: string }

export interface EditPlanInput {
  spec: EntityKindSpec
  /** The mirror's copy of the kind. */
  existing: readonly Entity[]
  ids: readonly EntityId[]
  operation: EditOperation
}

export interface EditPlan {
  kind: string
  /** Names the batch: "Set Open auction allowed on 12 brands". */
  title: string
  /** Sentences about the edit as a whole (a field it cannot change, a value of the wrong type); when any, no row is planned. */
  problems: string[]
  rows: PlannedRow[]
  counts: Record<PlanAction, number>
}

const LIST_TYPES = new Set<EntityField['type']>(['domains', 'references'])

function titleOf(spec: EntityKindSpec, field: EntityField, operation: EditOperation, count: number): string {
  const many = `${count.toLocaleString('en-US')} ${count === 1 ? spec.singular : spec.label.toLowerCase()}`
  if (operation.op === 'add') return `Add ${operation.value.trim()} to ${field.label} of ${many}`
  if (operation.op === 'remove') return `Remove ${operation.value.trim()} from ${field.label} of ${many}`
  if (operation.value.trim() === '') return `Clear ${field.label} of ${many}`
  // A boolean in the forms' words: "Set Open auction allowed to No", whichever of false/0/no was typed.
  const read = field.type === 'boolean' ? readCell(field, operation.value) : null
  const shown = read?.outcome === 'value' && typeof read.value === 'boolean' ? (read.value ? 'Yes' : 'No') : operation.value.trim()
  return `Set ${field.label} to ${shown} on ${many}`
}

/** The value the operation reads to, or the sentence why it cannot be used. */
function readOperation(spec: EntityKindSpec, field: EntityField, operation: EditOperation): { value: unknown } | { problem: string } {
  const isList = LIST_TYPES.has(field.type)
  if (operation.op !== 'set' && !isList) {
    return { problem: `${field.label} holds one value, not a list; set it instead of adding or removing values.` }
  }
  const reading = readCell(field, operation.value)
  if (reading.outcome === 'error') return { problem: reading.reason }
  if (reading.outcome === 'value') return { value: reading.value }
  if (operation.op !== 'set') return { problem: `Write the values to ${operation.op} (separated by ;).` }
  if (field.required) return { problem: `${field.label} is required for every ${spec.singular}, so it cannot be cleared; write a value.` }
  return { value: null }
}

function listAfter(before: unknown, values: readonly unknown[], op: 'add' | 'remove'): unknown {
  const has = (list: readonly unknown[], item: unknown) => list.some((other) => sameValue(other, item))
  // Removing from a list the entity does not have leaves it as it is (not an empty list where there was none).
  if (op === 'remove') return Array.isArray(before) ? before.filter((item) => !has(values, item)) : before
  const current = Array.isArray(before) ? before : []
  const merged = [...current]
  for (const item of values) if (!has(merged, item)) merged.push(item)
  return merged
}

export function planEdit(input: EditPlanInput): EditPlan {
  const { spec, operation } = input
  const counts: Record<PlanAction, number> = { create: 0, update: 0, delete: 0, unchanged: 0, error: 0 }
  const field = spec.fields.find((candidate) => candidate.name === operation.field)
  const empty = (title: string, problem: string): EditPlan => ({ kind: spec.kind, title, problems: [problem], rows: [], counts })
  if (field === undefined) {
    return empty(
      `Edit ${spec.label.toLowerCase()}`,
      `${spec.label} have no field "${operation.field}"; pick one of ${spec.fields.map((known) => known.name).join(', ')}.`,
    )
  }
  const title = titleOf(spec, field, operation, input.ids.length)
  if (field.readOnly === true || field.name === 'id') return empty(title, `${field.label} is set by the platform and cannot be changed.`)
  if (input.ids.length === 0) return empty(title, `No ${spec.label.toLowerCase()} are picked; check some rows, or edit all rows shown.`)
  const read = readOperation(spec, field, operation)
  if ('problem' in read) return empty(title, read.problem)

  const byId = new Map<string, Entity>()
  for (const entity of input.existing) byId.set(String(entity.id), entity)
  const rows = input.ids.map((id, index): PlannedRow => {
    const row = index + 1
    const existing = byId.get(String(id))
    if (existing === undefined) {
      const reason = `No ${spec.singular} with id ${String(id)} is in the local copy; refresh the list, then plan again.`
      return { row, action: 'error', id, changes: {}, entity: null, before: null, errors: [{ row, column: null, reason }] }
    }
    const before = existing[field.name] ?? null
    const after = operation.op === 'set' ? read.value : listAfter(before, Array.isArray(read.value) ? read.value : [], operation.op)
    if (sameValue(before, after)) return { row, action: 'unchanged', id: existing.id, changes: {}, entity: null, before: existing, errors: [] }
    const entity: Record<string, unknown> = { ...existing, [field.name]: after }
    return { row, action: 'update', id: existing.id, changes: { [field.name]: [before, after] }, entity, before: existing, errors: [] }
  })
  for (const row of rows) counts[row.action]++
  return { kind: spec.kind, title, problems: [], rows, counts }
}
