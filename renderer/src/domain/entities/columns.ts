import type { Entity, EntityField, EntityKindSpec } from '@contract'
import type { TableColumn } from '../../lib/table'

/** A table column for one field of a kind, with what the cell needs to draw links. */
export interface EntityColumn extends TableColumn<Entity> {
  field: EntityField
  /** CSS grid track. */
  width: string
  align: 'left' | 'right'
  /** For reference fields: the kind the ids point to, and the ids of a row. */
  refKind?: string
  refIds?: (row: Entity) => string[]
}

type Names = (kind: string) => Map<string, string>

function plain(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

function idsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item) => item !== null && item !== undefined).map(String)
  return value === null || value === undefined || value === '' ? [] : [String(value)]
}

export function buildColumns(spec: EntityKindSpec, names: Names): EntityColumn[] {
  const fields = [...spec.fields].sort((left, right) =>
    left.name === 'id' ? -1 : right.name === 'id' ? 1 : left.name === spec.titleField ? -1 : right.name === spec.titleField ? 1 : 0,
  )
  return fields.map((field): EntityColumn => {
    const name = field.name
    const base = { key: name, title: field.label, field }
    switch (field.type) {
      case 'integer':
      case 'number':
        return {
          ...base,
          kind: 'number',
          width: name === 'id' ? '112px' : '128px',
          align: 'right',
          text: (row) => plain(row[name]),
          sortValue: (row) => (typeof row[name] === 'number' ? (row[name] as number) : null),
        }
      case 'boolean':
        return {
          ...base,
          kind: 'boolean',
          width: 'minmax(150px, 0.8fr)',
          align: 'left',
          text: (row) => (row[name] === true ? 'yes' : row[name] === false ? 'no' : ''),
          sortValue: (row) => (row[name] === true ? 1 : row[name] === false ? 0 : null),
        }
      case 'domains':
        return {
          ...base,
          kind: 'text',
          width: 'minmax(200px, 1.4fr)',
          align: 'left',
          text: (row) => (Array.isArray(row[name]) ? (row[name] as unknown[]).map(String).join(', ') : plain(row[name])),
        }
      case 'reference':
      case 'references': {
        const refKind = field.references ?? name
        const refIds = (row: Entity) => idsOf(row[name])
        return {
          ...base,
          kind: 'text',
          width: field.type === 'references' ? 'minmax(220px, 1.6fr)' : 'minmax(180px, 1.2fr)',
          align: 'left',
          refKind,
          refIds,
          text: (row) => {
            const lookup = names(refKind)
            return refIds(row)
              .map((id) => lookup.get(id) ?? `#${id}`)
              .join(', ')
          },
        }
      }
      default:
        return {
          ...base,
          kind: 'text',
          align: 'left',
          width: name === spec.titleField ? 'minmax(220px, 2fr)' : field.type === 'json' ? 'minmax(160px, 1fr)' : 'minmax(150px, 1fr)',
          text: (row) => plain(row[name]),
        }
    }
  })
}
