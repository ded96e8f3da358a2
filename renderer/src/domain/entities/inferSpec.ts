import type { EntityField, EntityKindSpec } from '@contract'

/**
 * A kind spec for a kind the app has no built-in description of, inferred from its records:
 * each field's type is the one every sampled value agrees on; anything else is edited as JSON.
 */

const SAMPLE = 500

export function labelFromName(name: string): string {
  const spaced = name.replace(/_/g, ' ').trim()
  if (spaced === 'id') return 'ID'
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

function singularOf(kind: string): string {
  const words = kind.replace(/_/g, ' ')
  if (words.endsWith('ies')) return `${words.slice(0, -3)}y`
  if (words.endsWith('ses')) return words.slice(0, -2)
  if (words.endsWith('s')) return words.slice(0, -1)
  return words
}

function typeOf(values: unknown[]): EntityField['type'] {
  const present = values.filter((value) => value !== null && value !== undefined)
  if (present.length === 0) return 'text'
  if (present.every((value) => typeof value === 'boolean')) return 'boolean'
  if (present.every((value) => typeof value === 'number' && Number.isInteger(value))) return 'integer'
  if (present.every((value) => typeof value === 'number')) return 'number'
  if (present.every((value) => typeof value === 'string')) {
    const strings = present as string[]
    const nonEmpty = strings.filter((text) => text !== '')
    return nonEmpty.length > 0 && nonEmpty.every((text) => /^https?:\/\//i.test(text)) ? 'url' : 'text'
  }
  return 'json'
}

export function inferSpec(kind: string, rows: readonly Record<string, unknown>[]): EntityKindSpec {
  const sample = rows.slice(0, SAMPLE)
  const names: string[] = []
  for (const row of sample) for (const name of Object.keys(row)) if (!names.includes(name)) names.push(name)
  const fields: EntityField[] = names.map((name) => ({
    name,
    label: labelFromName(name),
    type: typeOf(sample.map((row) => row[name])),
    required: false,
    ...(name === 'id' ? { readOnly: true } : {}),
  }))
  fields.sort((left, right) => (left.name === 'id' ? -1 : right.name === 'id' ? 1 : 0))
  const titleField = ['name', 'title', 'label'].find((name) => names.includes(name)) ?? fields.find((field) => field.type === 'text')?.name ?? 'id'
  return { kind, label: labelFromName(kind), singular: singularOf(kind), titleField, fields, dependents: [] }
}
