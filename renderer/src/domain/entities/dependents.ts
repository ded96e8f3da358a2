import type { Dependent, Entity, EntityId, EntityKindSpec, ErrorDetails } from '@contract'
import { pointsAt } from './related'

/**
 * Who depends on an entity that could not be deleted (406): the list main sent, or, when main
 * found none, what the local mirrors say (rows of the dependent kinds pointing at the id).
 */
export function dependentsOf(
  error: { details?: ErrorDetails | undefined },
  spec: EntityKindSpec,
  id: EntityId,
  rowsOf: (kind: string) => readonly Entity[],
  specOf: (kind: string) => EntityKindSpec,
): Dependent[] {
  const sent = error.details?.dependents ?? []
  if (sent.length > 0) return sent
  const wanted = String(id)
  const found: Dependent[] = []
  for (const { kind, field } of spec.dependents) {
    const titleField = specOf(kind).titleField
    for (const row of rowsOf(kind)) {
      if (pointsAt(row[field], wanted))
        found.push({ kind, id: row.id, name: typeof row[titleField] === 'string' ? (row[titleField] as string) : `#${String(row.id)}` })
    }
  }
  return found
}
