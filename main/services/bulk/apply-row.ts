import { dependentSchema, type Dependent, type Entity, type EntityId } from '@contract'
import { AppError, isAppError } from '../errors'
import { changedFields } from '../entities/entity-service'
import { kindSpec } from '../entities/kinds'
import type { WorkflowClient } from '../workflow/client'
import type { CreateCandidate, RowStatus } from './apply-types'
import { sameValue, type PlannedRow } from './plan'
import { throughGate, type ThrottleGate } from './throttle-gate'

/**
 * One planned row sent to the platform: the lost-update guard before an update, the lookup by
 * external_id of a create whose answer was lost, the check of a row a killed run left `sending`.
 * A lost create that no external_id can look up is never sent again by itself: its outcome is
 * `unknown`, with the entities the platform now has under its name, until the user decides.
 * What was written comes back as a `RowWrite` for the change log and the mirror.
 */

export type ApplyWorkflow = Pick<WorkflowClient, 'get' | 'create' | 'update' | 'delete' | 'list'>

export interface RowWrite {
  /** `unknown`: nothing is known to be written, so nothing goes to the change log. */
  status: Extract<RowStatus, 'applied' | 'failed' | 'conflict' | 'unknown'>
  id: EntityId | null
  reason?: string
  /** The platform's copy before the write (null for a create), and after it (null for a delete). */
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  /** What the mirror should now hold: an entity to put in, an id to take out, or nothing. */
  mirror?: { put: Entity } | { remove: EntityId }
  /** A delete the platform refused (406): the entities that depend on it, when they could be found. */
  dependents?: Dependent[]
  /** An `unknown` create: the entities the platform now has under its name. */
  candidates?: CreateCandidate[]
}

export interface RowContext {
  kind: string
  workflow: ApplyWorkflow
  gate: ThrottleGate
  signal: AbortSignal
  /** entity-service's sentence for a 406 on delete (the dependents named); the platform's own sentence without it. */
  explainDependents?(kind: string, id: EntityId, error: AppError): Promise<AppError>
}

/** Failures that belong to the row (the platform refused this entity); anything else stops the batch. */
const ROW_FAILURES = new Set(['validation', 'not_found', 'dependents', 'conflict', 'method_not_allowed', 'forbidden'])

export function isRowFailure(error: unknown): error is AppError {
  return isAppError(error) && ROW_FAILURES.has(error.code)
}

/** A write the platform may or may not have applied (the answer was lost after sending). */
export function isUncertain(error: unknown): error is AppError {
  const outcome = isAppError(error) ? error.details?.outcome : undefined
  return outcome === 'unknown' || outcome === 'probably_created'
}

/** The planned values on top of the platform's copy: what an update sends. */
function plannedOnTop(row: PlannedRow, server: Entity): Entity {
  const whole: Record<string, unknown> = { ...server }
  for (const [field, [, after]] of Object.entries(row.changes)) whole[field] = after
  return { ...whole, id: server.id } as Entity
}

const singular = (kind: string): string => kindSpec(kind)?.singular ?? kind.replace(/_/g, ' ')

export function conflictReason(kind: string, id: EntityId, fields: readonly string[]): string {
  const shown = fields.slice(0, 6).join(', ') + (fields.length > 6 ? ` and ${fields.length - 6} more` : '')
  return `The ${singular(kind)} ${String(id)} was changed on the platform since the plan was made (${shown}), so nothing was sent. Plan again to see its current values.`
}

/** What one listing of the kind found for creates whose answers were lost. */
export interface LostCreateLookup {
  byExternalId: Map<string, Entity>
  /** By title (the kind's name field): maybe the entity a create without an external_id made. */
  byName: Map<string, Entity[]>
}

/**
 * The entities of the kind with these external ids or names, from one listing of the kind: the
 * platform has no filter by either (the specification shows no list parameters, and answers
 * 400 to one it does not take), and the app's list may predate the lost create. The client bounds
 * the listing (pages and rows).
 */
export async function lookUpCreates(context: RowContext, externalIds: ReadonlySet<string>, names: ReadonlySet<string> = new Set()): Promise<LostCreateLookup> {
  const found: LostCreateLookup = { byExternalId: new Map(), byName: new Map() }
  if (externalIds.size === 0 && names.size === 0) return found
  const titleField = titleFieldOf(context.kind)
  const pages = context.workflow.list(context.kind, { signal: context.signal })
  for await (const page of pages) {
    for (const entity of page) {
      if (typeof entity.external_id === 'string' && externalIds.has(entity.external_id)) found.byExternalId.set(entity.external_id, entity)
      const name = entity[titleField]
      if (typeof name === 'string' && names.has(name)) found.byName.set(name, [...(found.byName.get(name) ?? []), entity])
    }
  }
  return found
}

const externalIdOf = (row: PlannedRow): string | null => {
  const value = row.entity?.external_id
  return typeof value === 'string' && value !== '' ? value : null
}

const titleFieldOf = (kind: string): string => kindSpec(kind)?.titleField ?? 'name'

/** The name a create would have on the platform (its title field), or null when it has none. */
export function createdNameOf(kind: string, row: PlannedRow): string | null {
  const value = row.entity?.[titleFieldOf(kind)]
  return typeof value === 'string' && value !== '' ? value : null
}

/** How many candidates an unknown row names; the sentence counts them all. */
const MAX_CANDIDATES = 20

/** A create whose outcome cannot be known: the user is told what the platform has under its name, and decides. */
export function unknownCreate(kind: string, row: PlannedRow, lookup: LostCreateLookup, lead?: string): RowWrite {
  const name = createdNameOf(kind, row)
  const found = name === null ? [] : (lookup.byName.get(name) ?? [])
  const candidates = found.slice(0, MAX_CANDIDATES).map((entity) => ({ id: entity.id, name: name ?? '' }))
  const what = `the ${singular(kind)}${name === null ? '' : ` “${name}”`}`
  const plural = found.length === 1 ? singular(kind) : `${singular(kind)}s`
  const seen =
    name === null
      ? `It has no name to look for.`
      : found.length === 0
        ? `The platform has no ${singular(kind)} of that name now.`
        : `The platform now has ${found.length} ${plural} of that name: ${candidates.map((candidate) => String(candidate.id)).join(', ')}${found.length > candidates.length ? ' and more' : ''}.`
  const reason = `${lead ?? 'The answer to this create was lost'}, so AdOps Desk cannot tell whether the platform created ${what}: check the list. ${seen} It is not sent again by itself: say which id it was created as, or send it again.`
  return { status: 'unknown', id: null, reason, before: null, after: null, candidates }
}

async function update(context: RowContext, row: PlannedRow, id: EntityId): Promise<RowWrite> {
  const { workflow, kind, gate, signal } = context
  const server = await throughGate(gate, signal, () => workflow.get(kind, id, { signal }))
  const changed = changedFields(row.before ?? {}, server)
  if (changed.length > 0) {
    return { status: 'conflict', id, reason: conflictReason(kind, id, changed), before: server, after: row.entity, mirror: { put: server } }
  }
  const whole = plannedOnTop(row, server)
  try {
    await throughGate(gate, signal, () => workflow.update(kind, id, whole, { signal }))
  } catch (error) {
    if (!isUncertain(error)) throw error
    // The answer was lost: the platform's copy says whether it took the update.
    const now = await throughGate(gate, signal, () => workflow.get(kind, id, { signal }))
    if (changedFields(whole, now).length > 0) throw error
  }
  return { status: 'applied', id, before: server, after: whole, mirror: { put: whole } }
}

/** Tries a create at most this often when each answer is lost and the lookup finds nothing. */
const CREATE_TRIES = 3

async function create(context: RowContext, row: PlannedRow): Promise<RowWrite> {
  const { workflow, kind, gate, signal } = context
  const entity = row.entity ?? {}
  const externalId = externalIdOf(row)
  for (let attempt = 1; ; attempt += 1) {
    try {
      const created = await throughGate(gate, signal, () => workflow.create(kind, entity, { signal }))
      return { status: 'applied', id: created.id, before: null, after: created, mirror: { put: created } }
    } catch (error) {
      if (!isUncertain(error)) throw error
      if (externalId === null) {
        // Nothing can find it for sure: never sent again, the user decides from what the platform has under its name.
        const name = createdNameOf(kind, row)
        return unknownCreate(kind, row, await lookUpCreates(context, new Set(), new Set(name === null ? [] : [name])))
      }
      if (attempt >= CREATE_TRIES) throw error
      // Never sent again before looking: the lost answer may have been a success.
      const found = (await lookUpCreates(context, new Set([externalId]))).byExternalId.get(externalId)
      if (found !== undefined) return { status: 'applied', id: found.id, before: null, after: found, mirror: { put: found } }
    }
  }
}

async function remove(context: RowContext, row: PlannedRow, id: EntityId): Promise<RowWrite> {
  const { workflow, kind, gate, signal } = context
  if (row.before !== null) {
    // A revert's delete of a create is guarded like an update: an entity edited since the create is not deleted.
    // Only the fields the create wrote are compared, so fields the platform adds to its copy are no change.
    const before = row.before
    const server = await throughGate(gate, signal, () => workflow.get(kind, id, { signal }))
    const changed = Object.keys(before)
      .filter((field) => !sameValue(before[field], server[field]))
      .sort()
    if (changed.length > 0) return { status: 'conflict', id, reason: conflictReason(kind, id, changed), before: server, after: null, mirror: { put: server } }
  }
  try {
    await throughGate(gate, signal, () => workflow.delete(kind, id, { signal }))
  } catch (error) {
    if (isAppError(error) && error.code === 'dependents' && context.explainDependents !== undefined) throw await context.explainDependents(kind, id, error)
    if (!isUncertain(error)) throw error
    const gone = await throughGate(gate, signal, () => workflow.get(kind, id, { signal })).then(
      () => false,
      (lookup: unknown) => isAppError(lookup) && lookup.code === 'not_found',
    )
    if (!gone) throw error
  }
  return { status: 'applied', id, before: row.before, after: null, mirror: { remove: id } }
}

/** Sends one row; a failure of the row itself becomes a failed write, anything else is thrown (it stops the batch). */
export async function applyRow(context: RowContext, row: PlannedRow): Promise<RowWrite> {
  try {
    if (row.action === 'create') return await create(context, row)
    if (row.id === null) throw new AppError('validation', `Row ${row.row} names no entity to ${row.action}.`)
    if (row.action === 'update') return await update(context, row, row.id)
    if (row.action === 'delete') return await remove(context, row, row.id)
    throw new AppError('internal', `Row ${row.row} has nothing to send (${row.action}).`)
  } catch (error) {
    if (!isRowFailure(error)) throw error
    const id = row.action === 'create' ? null : row.id
    const dependents = error.code === 'dependents' ? dependentSchema.array().safeParse(error.details?.dependents) : null
    return {
      status: 'failed',
      id,
      reason: error.message,
      before: row.before,
      after: row.action === 'delete' ? null : row.entity,
      ...(dependents?.success === true && dependents.data.length > 0 ? { dependents: dependents.data } : {}),
    }
  }
}

/**
 * A row a killed run left `sending`: whether the platform already has it. Returns the write
 * when it does; null when it does not, and the row may be sent as usual (an update still
 * goes through the guard).
 */
export async function checkSent(context: RowContext, row: PlannedRow, known: LostCreateLookup): Promise<RowWrite | null> {
  const { workflow, kind, gate, signal } = context
  if (row.action === 'create') {
    const externalId = externalIdOf(row)
    // Without an external_id nothing can say whether the killed run's create went through: the user decides.
    if (externalId === null) return unknownCreate(kind, row, known, 'The answer to this create never came back (the apply stopped while it was sent)')
    const found = known.byExternalId.get(externalId)
    return found === undefined ? null : { status: 'applied', id: found.id, before: null, after: found, mirror: { put: found } }
  }
  if (row.id === null) return null
  const id = row.id
  const server = await throughGate(gate, signal, () => workflow.get(kind, id, { signal })).catch((error: unknown) => {
    if (isAppError(error) && error.code === 'not_found') return null
    throw error
  })
  if (row.action === 'delete') return server === null ? { status: 'applied', id, before: row.before, after: null, mirror: { remove: id } } : null
  if (server === null) return null
  // The platform holds every planned value already: the lost write went through.
  return changedFields(plannedOnTop(row, server), server).length === 0
    ? { status: 'applied', id, before: row.before, after: server, mirror: { put: server } }
    : null
}

/** The user said an `unknown` create was created as `id`: the platform's copy of it is the row's write. */
export async function takeAsCreated(context: RowContext, row: PlannedRow, id: EntityId): Promise<RowWrite> {
  const { workflow, kind, gate, signal } = context
  try {
    const created = await throughGate(gate, signal, () => workflow.get(kind, id, { signal }))
    return { status: 'applied', id: created.id, before: null, after: created, mirror: { put: created } }
  } catch (error) {
    if (!isAppError(error) || error.code !== 'not_found') throw error
    const name = createdNameOf(kind, row)
    return unknownCreate(
      kind,
      row,
      await lookUpCreates(context, new Set(), new Set(name === null ? [] : [name])),
      `The platform has no ${singular(kind)} ${String(id)}`,
    )
  }
}

export const upsertInto =
  (entities: readonly Entity[], removed: readonly EntityId[]) =>
  (rows: Entity[]): Entity[] => {
    const byId = new Map(entities.map((entity) => [String(entity.id), entity]))
    const gone = new Set(removed.map(String))
    const next = rows.filter((row) => !gone.has(String(row.id))).map((row) => byId.get(String(row.id)) ?? row)
    const present = new Set(next.map((row) => String(row.id)))
    for (const [key, entity] of byId) if (!present.has(key)) next.push(entity)
    return next
  }
