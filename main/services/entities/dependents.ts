import { sameId, type Dependent, type Entity, type EntityId } from '@contract'
import { AppError } from '../errors'
import type { WorkflowClient } from '../workflow/client'
import { kindSpec } from './kinds'

/**
 * Which entities of other kinds point at one (what makes the platform answer 406 to its
 * delete), and the sentence that says so. Written once for the entity form (rows from the
 * app's lists) and the command line (rows listed from the platform, it keeps no lists).
 */

function refersTo(value: unknown, id: EntityId): boolean {
  return Array.isArray(value) ? value.some((item) => sameId(item, id)) : value !== null && value !== undefined && sameId(value, id)
}

/** Entities of the kinds that may point at `kind` whose link field holds `id`; `rowsOf` gives a kind's rows. */
export async function findDependents(kind: string, id: EntityId, rowsOf: (kind: string) => Promise<readonly Entity[]>): Promise<Dependent[]> {
  const found: Dependent[] = []
  for (const link of kindSpec(kind)?.dependents ?? []) {
    const title = kindSpec(link.kind)?.titleField ?? 'name'
    for (const row of await rowsOf(link.kind)) {
      if (refersTo(row[link.field], id)) found.push({ kind: link.kind, id: row.id, name: String(row[title] ?? row.id) })
    }
  }
  return found
}

/** The entity's name as a sentence shows it: its title field, or `#id` when it is not known. */
export function entityName(kind: string, id: EntityId, entity: Entity | undefined): string {
  return entity ? String(entity[kindSpec(kind)?.titleField ?? 'name'] ?? id) : `#${id}`
}

/** The platform's 406 on a delete, made into a sentence that names how many depend on it, with the list in its details. */
export function dependentsError(name: string, dependents: Dependent[], error: AppError): AppError {
  const message =
    dependents.length > 0
      ? `“${name}” cannot be deleted because ${dependents.length} ${dependents.length === 1 ? 'entity depends' : 'entities depend'} on it. Change or delete ${dependents.length === 1 ? 'it' : 'them'} first.`
      : `${error.message} Other entities depend on “${name}”; change or delete them first.`
  return new AppError('dependents', message, { ...error.details, dependents })
}

/**
 * The 406 explained from the platform itself, for the command line (it keeps no lists): the
 * linked kinds listed once per run (a bulk delete refused on many rows lists them once), the
 * entity's name read. A lookup that fails leaves the platform's own sentence.
 */
export function platformDependents(
  workflow: Pick<WorkflowClient, 'list' | 'get'>,
): (profileId: string, kind: string, id: EntityId, error: AppError) => Promise<AppError> {
  const listed = new Map<string, Promise<Entity[]>>()
  const rowsOf = (kind: string): Promise<Entity[]> => {
    let rows = listed.get(kind)
    if (rows === undefined) {
      rows = (async () => {
        const all: Entity[] = []
        for await (const page of workflow.list(kind)) all.push(...page)
        return all
      })()
      listed.set(kind, rows)
    }
    return rows
  }
  return async (_profileId, kind, id, error) => {
    try {
      const dependents = await findDependents(kind, id, rowsOf)
      const entity = await workflow.get(kind, id).catch(() => undefined)
      return dependentsError(entityName(kind, id, entity), dependents, error)
    } catch {
      return error
    }
  }
}
