import type { Entity, EntityField, EntityKindSpec } from '@contract'
import type { TableColumn } from '../../lib/table'

/** A table column for one field of a kind, with what the cell needs to draw links. */
export interface EntityColumn extends TableColumn<Entity> {
  field: EntityField
  /** CSS grid track: `minmax(<minWidth>px, <share>fr)`, or a fixed width for the id. */
  width: string
  /** The least the column takes, in px; past the table's width the table scrolls sideways. */
  minWidth: number
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

/** What a header's title takes around its text: the cell's padding, the sort icon and the gap before it. */
const HEADER_CHROME_PX = 36
/** A header character's width, a little over what 12.5 px semibold measures (7.5 px in DejaVu Sans): never short of it. */
const HEADER_CHARACTER_PX = 8

/**
 * The width a title needs on at most two lines (the header wraps it there): its longer line when
 * split at the best space. "Private marketplace allowed" needs "Private marketplace".
 */
export function titleWidth(title: string): number {
  const words = title.split(/\s+/).filter((word) => word !== '')
  let longest = title.length
  for (let split = 1; split < words.length; split++) {
    longest = Math.min(longest, Math.max(words.slice(0, split).join(' ').length, words.slice(split).join(' ').length))
  }
  return Math.ceil(longest * HEADER_CHARACTER_PX) + HEADER_CHROME_PX
}

/**
 * Each type's least width and share of the room left (CSS grid `fr`). The table's rows are
 * grids of their own (a window of them is rendered), so the tracks cannot size to content:
 * the shares say what each type holds instead. Web addresses, domains and lists of names (an
 * agency's brands), long and read whole, take the most; the name a little less; yes/no, codes and numbers little. A title wider
 * than its type's least width raises it, so no header is cut.
 */
const TRACKS: Record<EntityField['type'] | 'title', { least: number; share: number }> = {
  title: { least: 180, share: 1.5 },
  url: { least: 220, share: 2.6 },
  domains: { least: 220, share: 2.6 },
  references: { least: 220, share: 2.6 },
  reference: { least: 160, share: 1.2 },
  text: { least: 104, share: 0.8 },
  json: { least: 160, share: 1 },
  boolean: { least: 104, share: 0.5 },
  integer: { least: 96, share: 0.5 },
  number: { least: 96, share: 0.5 },
}
/** The id: a fixed column, right-aligned, room for seven digits and its ">10" filter. */
const ID_WIDTH = 84

function track(field: EntityField, spec: EntityKindSpec): { width: string; minWidth: number } {
  if (field.name === 'id') return { width: `${ID_WIDTH}px`, minWidth: ID_WIDTH }
  const { least, share } = TRACKS[field.name === spec.titleField ? 'title' : field.type]
  const minWidth = Math.max(least, titleWidth(field.label))
  return { width: `minmax(${minWidth}px, ${share}fr)`, minWidth }
}

export function buildColumns(spec: EntityKindSpec, names: Names): EntityColumn[] {
  const fields = [...spec.fields].sort((left, right) =>
    left.name === 'id' ? -1 : right.name === 'id' ? 1 : left.name === spec.titleField ? -1 : right.name === spec.titleField ? 1 : 0,
  )
  return fields.map((field): EntityColumn => {
    const name = field.name
    const base = { key: name, title: field.label, field, ...track(field, spec) }
    switch (field.type) {
      case 'integer':
      case 'number':
        return {
          ...base,
          kind: 'number',
          align: 'right',
          text: (row) => plain(row[name]),
          sortValue: (row) => (typeof row[name] === 'number' ? (row[name] as number) : null),
        }
      case 'boolean':
        return {
          ...base,
          kind: 'boolean',
          align: 'left',
          text: (row) => (row[name] === true ? 'yes' : row[name] === false ? 'no' : ''),
          sortValue: (row) => (row[name] === true ? 1 : row[name] === false ? 0 : null),
        }
      case 'domains':
        return {
          ...base,
          kind: 'text',
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
          text: (row) => plain(row[name]),
        }
    }
  })
}
