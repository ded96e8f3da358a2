import type { EntityKindSpec } from '@contract'

/**
 * A field's name and values in the words the entity forms use: the kind's field labels (main's
 * kinds.ts, the one source of them) and Yes/No for booleans. Plans, the change log and bulk edit
 * read fields through this, so none of them shows `is_pmp_allowed` or `true`.
 */
export interface FieldWords {
  /** "Private marketplace allowed" for is_pmp_allowed; a field the kind does not list keeps its name. */
  label(field: string): string
  /** One value as a short line: Yes/No, lists joined with "; ", nothing as a dash. */
  value(value: unknown): string
  /** The entity's name (the kind's title field) in a record, or null when it has none. */
  nameOf(record: Record<string, unknown> | null | undefined): string | null
}

export function fieldWords(spec: EntityKindSpec | null | undefined): FieldWords {
  const labels = new Map((spec?.fields ?? []).map((field) => [field.name, field.label]))
  const titleField = spec?.titleField ?? 'name'
  return {
    label: (field) => labels.get(field) ?? field,
    value: shownFieldValue,
    nameOf(record) {
      const name = record?.[titleField]
      return typeof name === 'string' && name.trim() !== '' ? name : typeof name === 'number' ? String(name) : null
    },
  }
}

export function shownFieldValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join('; ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
