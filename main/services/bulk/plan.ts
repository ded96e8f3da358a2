import type { Entity, EntityField, EntityId, EntityKindSpec } from '@contract'
import { readCell } from './cells'
import { fieldInWords, resolveColumns, type ColumnMapping } from './columns'
import type { ImportTable, TableRow } from './read-table'

/**
 * Stage 4 of an import: the plan. Each row is matched to an existing entity of the mirror by
 * `id` when the file has an id column, else by `external_id`; a row with no match is a create.
 * Per row: create, update, unchanged or error, the field-level `changes` ({field: [before,
 * after]}), and, because an update sends the whole entity, the whole merged entity to send.
 * Nothing is sent here. The mirror is indexed once by id and by external_id: planning is linear
 * in rows plus entities, never a scan per row.
 */

export type MatchKey = 'id' | 'external_id'
/** `delete` comes only from a revert (the inverse of a create); an import or a bulk edit never deletes. */
export type PlanAction = 'create' | 'update' | 'delete' | 'unchanged' | 'error'

export interface RowError {
  row: number
  /** The column's name in the header; null when the row as a whole is wrong. */
  column: string | null
  reason: string
}

export interface PlannedRow {
  row: number
  action: PlanAction
  /** The matched entity's id; null for a create (the platform gives it) or a row matching nothing. */
  id: EntityId | null
  changes: Record<string, [before: unknown, after: unknown]>
  /** What an apply sends: the whole merged entity for an update, the new one for a create; null otherwise. */
  entity: Record<string, unknown> | null
  /** The entity as the plan saw it (null for a create): the lost-update guard compares the platform's copy with it before sending. */
  before: Record<string, unknown> | null
  errors: RowError[]
  /** A revert's row: the change it undoes, recorded with its write so the log knows the change is undone. */
  reverts?: string
}

export interface ImportPlan {
  kind: string
  match: MatchKey
  /** Each column and the field it fills (null: left out). */
  columns: Array<{ column: string; field: string | null }>
  unknownColumns: string[]
  /** Sentences about the file as a whole; a plan with any is not clean even when no row failed. */
  problems: string[]
  rows: PlannedRow[]
  counts: Record<PlanAction, number>
}

export interface PlanInput {
  spec: EntityKindSpec
  table: ImportTable
  /** The kind's entities as the mirror holds them. */
  existing: Iterable<Entity>
  /** Default: `id` when a column fills it, else `external_id`. */
  match?: MatchKey
  mapping?: ColumnMapping
}

const DUPLICATE_ROWS_SHOWN = 5

/** Values compared as the platform stores them: lists in order, objects by their JSON. */
export function sameValue(before: unknown, after: unknown): boolean {
  if (before === after) return true
  if (typeof before !== 'object' || typeof after !== 'object' || before === null || after === null) return false
  return JSON.stringify(before) === JSON.stringify(after)
}

/** Rows whose trimmed cell at `position` is shared with another row, each with the sentence it gets. */
function duplicates(rows: readonly TableRow[], position: number, name: string): Map<number, string> {
  const byValue = new Map<string, number[]>()
  if (position < 0) return new Map()
  for (const { row, cells } of rows) {
    const key = (cells[position] ?? '').trim()
    if (key === '') continue
    const seen = byValue.get(key)
    if (seen === undefined) byValue.set(key, [row])
    else seen.push(row)
  }
  const sentences = new Map<number, string>()
  for (const [key, seen] of byValue) {
    if (seen.length < 2) continue
    const shown = seen.slice(0, DUPLICATE_ROWS_SHOWN).join(', ') + (seen.length > DUPLICATE_ROWS_SHOWN ? ` and ${seen.length - DUPLICATE_ROWS_SHOWN} more` : '')
    for (const row of seen)
      sentences.set(row, `${name} "${key.slice(0, 80)}" is in rows ${shown}: a file may name each entity once, so keep one of these rows.`)
  }
  return sentences
}

export function planImport(input: PlanInput): ImportPlan {
  const { spec, table } = input
  const resolved = resolveColumns(table.header, spec, input.mapping)
  const positionOf = (name: string): number => resolved.fields.findIndex((field) => field?.name === name)
  const idColumn = positionOf('id')
  const externalColumn = positionOf('external_id')
  const match: MatchKey = input.match ?? (idColumn >= 0 ? 'id' : 'external_id')
  const problems = [...table.problems, ...resolved.problems]
  if (match === 'id' && idColumn < 0) problems.push('Matching by id needs an id column; add one, or match by external_id.')
  if (match === 'external_id' && externalColumn < 0) problems.push('Matching by external_id needs an external_id column; add one, or match by id.')

  const byId = new Map<string, Entity>()
  const byExternalId = new Map<string, Entity>()
  for (const entity of input.existing) {
    byId.set(String(entity.id), entity)
    if (typeof entity.external_id === 'string' && entity.external_id !== '') byExternalId.set(entity.external_id, entity)
  }
  const duplicateIds = duplicates(table.rows, idColumn, 'id')
  const duplicateExternalIds = duplicates(table.rows, externalColumn, 'external_id')
  const context: RowContext = { spec, header: table.header, fields: resolved.fields, match, idColumn, externalColumn, byId, byExternalId }

  const counts: Record<PlanAction, number> = { create: 0, update: 0, delete: 0, unchanged: 0, error: 0 }
  const rows = table.rows.map((tableRow) => {
    const keyErrors = [duplicateIds.get(tableRow.row), duplicateExternalIds.get(tableRow.row)].filter((reason): reason is string => reason !== undefined)
    const planned = planRow(context, tableRow, keyErrors)
    counts[planned.action]++
    return planned
  })
  return {
    kind: spec.kind,
    match,
    columns: table.header.map((column, position) => ({ column, field: resolved.fields[position]?.name ?? null })),
    unknownColumns: resolved.unknown,
    problems,
    rows,
    counts,
  }
}

interface RowContext {
  spec: EntityKindSpec
  header: readonly string[]
  fields: readonly (EntityField | null)[]
  match: MatchKey
  idColumn: number
  externalColumn: number
  byId: ReadonlyMap<string, Entity>
  byExternalId: ReadonlyMap<string, Entity>
}

/** The existing entity a row names, or why it names none that can be used; undefined: a create. */
function target(context: RowContext, idText: string, externalText: string): { entity?: Entity; reason?: string; column?: string } {
  const { spec, byId, byExternalId } = context
  if (context.match === 'id') {
    if (idText !== '') {
      const entity = byId.get(idText)
      return entity !== undefined ? { entity } : { reason: `No ${spec.singular} has id ${idText}; leave the id empty to create a new one.`, column: 'id' }
    }
    const taken = externalText === '' ? undefined : byExternalId.get(externalText)
    if (taken !== undefined) {
      return {
        reason: `external_id "${externalText}" is already ${spec.singular} ${String(taken.id)}; put ${String(taken.id)} in the id column to update it.`,
        column: 'external_id',
      }
    }
    return {}
  }
  const entity = externalText === '' ? undefined : byExternalId.get(externalText)
  if (idText === '') return entity === undefined ? {} : { entity }
  if (entity === undefined) return { reason: `id ${idText} is given for a new ${spec.singular}; the platform gives ids, so leave it empty.`, column: 'id' }
  if (String(entity.id) !== idText) {
    return {
      reason: `id ${idText} is not the id of the ${spec.singular} with external_id "${externalText}" (${String(entity.id)}); correct or clear it.`,
      column: 'id',
    }
  }
  return { entity }
}

function planRow(context: RowContext, tableRow: TableRow, keyErrors: string[]): PlannedRow {
  const { row, cells } = tableRow
  const { spec, header, fields } = context
  const errors: RowError[] = keyErrors.map((reason) => ({ row, column: null, reason }))
  const failed = (id: EntityId | null): PlannedRow => ({ row, action: 'error', id, changes: {}, entity: null, before: null, errors })
  if (cells.length !== header.length) {
    errors.push({
      row,
      column: null,
      reason: `The row has ${cells.length} cells but the header has ${header.length} columns; check its quotes and separators.`,
    })
    return failed(null)
  }
  const keyText = (position: number): string => (position < 0 ? '' : (cells[position] ?? '').trim())
  const found = target(context, keyText(context.idColumn), keyText(context.externalColumn))
  if (found.reason !== undefined) errors.push({ row, column: found.column ?? null, reason: found.reason })
  const existing = found.entity
  const id = existing?.id ?? null

  const values: Record<string, unknown> = {}
  const filled = new Set<string>()
  fields.forEach((field, position) => {
    // The id is the row's key, never a value to send.
    if (field === null || field.name === 'id') return
    const column = header[position] ?? ''
    filled.add(field.name)
    const reading = readCell(field, cells[position] ?? '')
    if (reading.outcome === 'error') errors.push({ row, column, reason: reading.reason })
    else if (reading.outcome === 'value') values[field.name] = reading.value
    else if (field.required) {
      const reason =
        existing === undefined
          ? `${field.name} is required for a new ${spec.singular}.`
          : `${field.name} is required, so an empty cell cannot clear it; write its value, or leave the column out to keep it.`
      errors.push({ row, column, reason })
    }
  })
  // Only a row meant as a create is told what a create needs (a row whose key failed was meant as an update).
  if (existing === undefined && found.reason === undefined) {
    for (const field of spec.fields) {
      if (field.required && !field.readOnly && !filled.has(field.name)) {
        errors.push({ row, column: null, reason: `The file has no ${fieldInWords(field)} column, which a new ${spec.singular} needs.` })
      }
    }
  }
  if (errors.length > 0) return failed(id)

  const changes: PlannedRow['changes'] = {}
  if (existing === undefined) {
    for (const [name, after] of Object.entries(values)) changes[name] = [null, after]
    return { row, action: 'create', id: null, changes, entity: values, before: null, errors }
  }
  const merged: Record<string, unknown> = { ...existing }
  for (const [name, after] of Object.entries(values)) {
    const before = existing[name]
    if (!sameValue(before, after)) changes[name] = [before ?? null, after]
    merged[name] = after
  }
  const action = Object.keys(changes).length === 0 ? 'unchanged' : 'update'
  return { row, action, id, changes, entity: action === 'update' ? merged : null, before: existing, errors }
}
