import type { EntityField, EntityKindSpec } from '@contract'

/**
 * Stage 2 of an import: which field each column fills. Columns map by name automatically, case
 * and punctuation aside ("External ID", "external_id" and "externalId" are the same), by the
 * field's name or its label as the screens show it, and by either without a leading "is" or a
 * trailing "allowed" ("Private marketplace" and "is_private_marketplace_allowed" fill
 * is_pmp_allowed, labelled "Private marketplace allowed"); the user may change any of it (a mapping names a field
 * per column, or null to leave the column out on purpose). A column that maps to nothing is a
 * problem, not skipped quietly: its values would be lost without a word.
 */

/** Column name (as in the header) → field name, or null: the column is left out on purpose. */
export type ColumnMapping = Record<string, string | null>

export interface ResolvedColumns {
  /** The field each column fills, by position; null for a column left out. */
  fields: (EntityField | null)[]
  /** Columns that match no field and were not left out on purpose. */
  unknown: string[]
  /** Sentences: unknown columns, two columns for one field, a mapping naming no field. */
  problems: string[]
}

/** A name as a column header is compared: lower case, letters and digits only. */
export const comparableName = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')

/** A name without a leading "is" or a trailing "allowed" word, compared as above ("is_pmp_allowed" → "pmp"). */
function shortName(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
  if (words[0] === 'is' && words.length > 1) words.shift()
  if (words.at(-1) === 'allowed' && words.length > 1) words.pop()
  return words.join('')
}

/** The automatic mapping of a header: every column to the field its name matches, or null. */
export function suggestMapping(header: readonly string[], spec: EntityKindSpec): ColumnMapping {
  const byName = new Map<string, string>()
  // Short forms first, then labels, names last: a name wins when another field's label or short form spells it.
  const shortForms = new Map<string, string | null>()
  for (const field of spec.fields) {
    for (const form of new Set([shortName(field.label), shortName(field.name)])) {
      // A short form two fields share names neither.
      shortForms.set(form, shortForms.has(form) && shortForms.get(form) !== field.name ? null : field.name)
    }
  }
  for (const [form, name] of shortForms) if (name !== null && form !== '') byName.set(form, name)
  for (const field of spec.fields) byName.set(comparableName(field.label), field.name)
  for (const field of spec.fields) byName.set(comparableName(field.name), field.name)
  return Object.fromEntries(header.map((column) => [column, byName.get(comparableName(column)) ?? byName.get(shortName(column)) ?? null]))
}

/** A field as a sentence names it: its label, and its API name too when that is spelled otherwise ("Private marketplace allowed (is_pmp_allowed)"). */
export function fieldInWords(field: Pick<EntityField, 'name' | 'label'>): string {
  return comparableName(field.label) === comparableName(field.name) ? field.label : `${field.label} (${field.name})`
}

export function resolveColumns(header: readonly string[], spec: EntityKindSpec, mapping: ColumnMapping = {}): ResolvedColumns {
  const automatic = suggestMapping(header, spec)
  const fieldsByName = new Map(spec.fields.map((field) => [field.name, field]))
  const fieldNames = spec.fields.map(fieldInWords).join(', ')
  const problems: string[] = []
  const unknown: string[] = []
  const taken = new Map<string, string>()
  const fields = header.map((column, position) => {
    const shown = column === '' ? `number ${position + 1} (no name)` : `"${column}"`
    const chosen = Object.hasOwn(mapping, column) ? mapping[column] : automatic[column]
    if (chosen === null) {
      if (!Object.hasOwn(mapping, column)) {
        unknown.push(column)
        problems.push(`Column ${shown} matches no field of ${spec.kind} (${fieldNames}): rename it to one of them, or leave it out of the import.`)
      }
      return null
    }
    const field = chosen === undefined ? undefined : fieldsByName.get(chosen)
    if (field === undefined) {
      problems.push(`Column ${shown} is mapped to "${String(chosen)}", which is not a field of ${spec.kind} (${fieldNames}).`)
      return null
    }
    const before = taken.get(field.name)
    if (before !== undefined) {
      problems.push(`Columns "${before}" and ${shown} both fill ${field.label}; keep one of them.`)
      return null
    }
    taken.set(field.name, column)
    return field
  })
  return { fields, unknown, problems }
}
