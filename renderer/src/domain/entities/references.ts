import type { Entity, EntityId } from '@contract'

/** How a record is named where another one points at it: its title, or `#id` when it has none. */
export function titleOf(row: Entity, titleField: string): string {
  const title = row[titleField]
  return typeof title === 'string' && title !== '' ? title : `#${String(row.id)}`
}

/** id (as text) → display name, for the rows of one kind. */
export function nameMap(rows: readonly Entity[], titleField: string): Map<string, string> {
  const map = new Map<string, string>()
  for (const row of rows) map.set(String(row.id), titleOf(row, titleField))
  return map
}

/** The choices of a reference field: every row of the kind it points at, named with its id. */
export function referenceOptions(rows: readonly Entity[], titleField: string): Array<{ label: string; value: EntityId }> {
  return rows.map((row) => ({
    label: typeof row[titleField] === 'string' ? `${row[titleField] as string} (#${String(row.id)})` : `#${String(row.id)}`,
    value: row.id,
  }))
}
