import type { Entity, EntityKindSpec } from '@contract'
import { titleOf } from './references'

/** One entity linked to another, named as the lists name it. */
export interface RelatedItem {
  kind: string
  id: string
  name: string
}

/** The entities linked to one through one field: the ones it points at, or the ones pointing at it. */
export interface RelatedGroup {
  /** "Publisher" (the field that points out), "Ad units" (the kind that points in). */
  label: string
  kind: string
  /** A field holding one id (an ad unit's publisher): named without a count. */
  single: boolean
  /** At most the first `shown` of them, in the lists' order. */
  items: RelatedItem[]
  total: number
}

/** Whether a field's value (one id, or a list of ids) names `id`; ids compare as text, as the platform's numbers and strings both occur. */
export function pointsAt(value: unknown, id: string): boolean {
  if (Array.isArray(value)) return value.some((item) => item !== null && item !== undefined && String(item) === id)
  return value !== null && value !== undefined && String(value) === id
}

function idsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item) => item !== null && item !== undefined).map(String)
  return value === null || value === undefined || value === '' ? [] : [String(value)]
}

export interface RelatedSources {
  /** The local copy of a kind's list (the synced mirror): no call to the platform. */
  rowsOf: (kind: string) => readonly Entity[]
  specOf: (kind: string) => EntityKindSpec
}

/**
 * What the kinds' specs say links to an entity: each reference field's targets (an ad unit's
 * publisher, an agency's brands), then each kind whose field points back at it (a publisher's
 * ad units, a brand's agencies). Read from the local lists only, so opening an entity costs no
 * request; an id the local list does not hold is still named, by `#id`.
 */
export function relatedOf(entity: Entity, spec: EntityKindSpec, { rowsOf, specOf }: RelatedSources, shown = 12): RelatedGroup[] {
  const groups: RelatedGroup[] = []
  for (const field of spec.fields) {
    if (field.type !== 'reference' && field.type !== 'references') continue
    const kind = field.references ?? field.name
    const ids = idsIn(entity[field.name])
    const titleField = specOf(kind).titleField
    const byId = new Map<string, Entity>()
    if (ids.length > 0) for (const row of rowsOf(kind)) byId.set(String(row.id), row)
    const items = ids.slice(0, shown).map((id) => {
      const row = byId.get(id)
      return { kind, id, name: row ? titleOf(row, titleField) : `#${id}` }
    })
    groups.push({ label: field.label, kind, single: field.type === 'reference', items, total: ids.length })
  }
  const wanted = String(entity.id)
  for (const { kind, field } of spec.dependents) {
    const other = specOf(kind)
    const items: RelatedItem[] = []
    let total = 0
    for (const row of rowsOf(kind)) {
      if (!pointsAt(row[field], wanted)) continue
      total++
      if (items.length < shown) items.push({ kind, id: String(row.id), name: titleOf(row, other.titleField) })
    }
    groups.push({ label: other.label, kind, single: false, items, total })
  }
  return groups
}

/** The kinds whose local lists `relatedOf` reads for entities of this kind. */
export function relatedKinds(spec: EntityKindSpec): string[] {
  const pointedAt = spec.fields.filter((field) => field.type === 'reference' || field.type === 'references').map((field) => field.references ?? field.name)
  return [...new Set([...pointedAt, ...spec.dependents.map((dependent) => dependent.kind)])]
}
