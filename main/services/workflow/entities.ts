import { z } from 'zod'
import type { Entity, EntityId } from '@contract'
import { AppError } from '../errors'

/** Entity ids are integers on the platform today; strings are accepted so a new kind needs no code change. An entity keeps every field the platform sent, so an update can send the whole object back. */
export type { Entity, EntityId } from '@contract'

/** Kinds are data: any path name of this form is a kind (`publishers`, `ad_units`, a kind added next year). */
const KIND_PATTERN = /^[a-z][a-z0-9_]*$/

export function isEntityKind(kind: string): boolean {
  return KIND_PATTERN.test(kind) && kind.length <= 100
}

export function assertEntityKind(kind: string): void {
  if (!isEntityKind(kind)) {
    throw new AppError('validation', `"${kind.slice(0, 100)}" is not an entity kind. Kinds are lower-case path names such as publishers or ad_units.`, {
      kind: kind.slice(0, 100),
    })
  }
}

export function isEntityId(id: unknown): id is EntityId {
  return (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id.trim() !== '' && id.length <= 200)
}

const URL_SYNTAX = /[/\\?#]/

/**
 * Why an id cannot go into `{base_url}/<kind>/<id>/`, or null when it can. `..` would climb
 * out of the kind (`/publishers/../` is the API root), `/`, `\`, `?` and `#` would change
 * the path or cut it short, and a server may decode `%2e%2e` or `%2F` into the same thing, so
 * every %-decoding of the id is checked too (`%252e` is `%2e` after one).
 */
export function entityIdProblem(id: EntityId): string | null {
  if (typeof id === 'number') return null
  const refused = 'An entity id cannot be "." or "..", or contain /, \\, ? or # (plainly or %-encoded), because it becomes part of the request\'s address.'
  let form = id
  for (;;) {
    const trimmed = form.trim()
    if (trimmed === '.' || trimmed === '..' || URL_SYNTAX.test(form)) return refused
    // Lenient on purpose: a malformed sequence elsewhere must not hide an encoded one.
    const decoded = form.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    if (decoded === form) return null
    form = decoded
  }
}

export function assertEntityId(id: unknown): asserts id is EntityId {
  if (!isEntityId(id)) throw new AppError('validation', 'An entity id must be a whole number or a non-empty text.', { id: String(id).slice(0, 200) })
  const problem = entityIdProblem(id)
  if (problem !== null) throw new AppError('validation', problem, { id })
}

function isEntity(value: unknown): value is Entity {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && isEntityId((value as { id?: unknown }).id)
}

// A type guard rather than a field-by-field object schema: entities are open-ended, and a
// 100,000-row listing should not pay for copying every record.
export const entitySchema = z.custom<Entity>(isEntity, { message: 'expected an entity object with an id' })

export const listEnvelopeSchema = z.looseObject({
  count: z.number().int().nonnegative(),
  next: z.string().nullable(),
  previous: z.string().nullable().optional(),
  results: z.array(entitySchema),
})
export type ListEnvelope = z.infer<typeof listEnvelopeSchema>
