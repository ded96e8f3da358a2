/** Entities: kinds, mirrors, conflict-checked edits, drafts, csv export. */
import { z } from 'zod'
import { channel, empty, entityIdSchema, profileRef, requestId } from './primitives'

export const entityKindSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'Kinds are lower-case path names such as publishers or ad_units')
  .max(100)

const MAX_ENTITY_JSON = 1_000_000
/** An entity as the renderer sends it: plain JSON, bounded in size (the platform refuses bodies over 1 MiB). */
export const entityInput = z
  .record(z.string().max(200), z.json())
  .refine((value) => JSON.stringify(value).length <= MAX_ENTITY_JSON, 'The entity is too large (over 1 MB)')

/** Entities going to the page are checked for shape only: they come from the platform, not from our secrets, and a 100,000-row list must not be copied field by field. */
export type Entity = Record<string, unknown> & { id: z.infer<typeof entityIdSchema> }
export const entityOutput = z.custom<Entity>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && 'id' in value,
  'expected an entity with an id',
)
export const entityRows = z.custom<Entity[]>((value) => Array.isArray(value), 'expected a list of entities')

export const fieldTypes = ['text', 'url', 'integer', 'number', 'boolean', 'domains', 'reference', 'references', 'json'] as const
export const entityFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(fieldTypes),
  required: z.boolean(),
  /** For reference fields: the kind the id points to. */
  references: entityKindSchema.optional(),
  /** Shown under the field. */
  hint: z.string().optional(),
  /** Read-only fields (the id) are shown, never edited. */
  readOnly: z.boolean().optional(),
})
export type EntityField = z.infer<typeof entityFieldSchema>

export const entityKindSpecSchema = z.object({
  kind: entityKindSchema,
  /** "Publishers" */
  label: z.string(),
  /** "publisher" */
  singular: z.string(),
  /** The field that names an entity in lists and links. */
  titleField: z.string(),
  fields: z.array(entityFieldSchema),
  /** Kinds whose entities point at this one, and through which field (for 406 explanations). */
  dependents: z.array(z.object({ kind: entityKindSchema, field: z.string() })),
})
export type EntityKindSpec = z.infer<typeof entityKindSpecSchema>

export const dependentSchema = z.object({ kind: z.string(), id: entityIdSchema, name: z.string() })
export type Dependent = z.infer<typeof dependentSchema>

export const updateResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('saved'), entity: entityOutput }),
  z.object({ status: z.literal('conflict'), server: entityOutput, changedFields: z.array(z.string()) }),
])
export type UpdateResult = z.infer<typeof updateResultSchema>

export const draftSchema = z.object({
  kind: z.string(),
  /** The entity id as text, or "new" for a create form. */
  key: z.string(),
  draft: z.record(z.string(), z.unknown()),
  /** The entity as it was when the user started editing (null for a new one). */
  original: z.record(z.string(), z.unknown()).nullable(),
  savedAt: z.string(),
})
export type Draft = z.infer<typeof draftSchema>

const entityTarget = { profileId: profileRef, kind: entityKindSchema }

export const entitiesChannels = {
  kinds: channel(empty, z.array(entityKindSpecSchema)),
  /** The local copy of a kind's list: instant, and readable offline. `syncedAt` null: never synced. */
  mirror: channel(
    z
      .object({
        ...entityTarget,
        /** A slice, so the first screenful of a 100,000-row list can be painted before the rest crosses the bridge. */
        offset: z.number().int().min(0).max(100_000_000).optional(),
        limit: z.number().int().min(1).max(100_000_000).optional(),
      })
      .strict(),
    z.object({ rows: entityRows, syncedAt: z.string().nullable(), total: z.number() }),
  ),
  /** Fetches every page again (progress and rows arrive as onSyncProgress events) and stores the mirror. */
  sync: channel(z.object({ ...entityTarget, requestId: requestId.optional() }).strict(), z.object({ count: z.number(), syncedAt: z.string() })),
  get: channel(z.object({ ...entityTarget, id: entityIdSchema }).strict(), entityOutput),
  create: channel(z.object({ ...entityTarget, entity: entityInput }).strict(), entityOutput),
  /**
   * Re-reads the entity first. If the server's copy differs from `original` and `force` is not
   * set, nothing is written and the server's copy comes back to be resolved by the user.
   */
  update: channel(
    z.object({ ...entityTarget, id: entityIdSchema, original: entityInput, changes: entityInput, force: z.boolean().optional() }).strict(),
    updateResultSchema,
  ),
  /** A 406 comes back as a `dependents` error whose details list the dependents found in the local mirrors. */
  delete: channel(z.object({ ...entityTarget, id: entityIdSchema }).strict(), z.null()),
  /**
   * Writes the given rows of the mirror, in the given order and columns, to a csv file. Where is
   * main's to ask (its save dialog; the web host: a new name in its exports folder): the page
   * never names a path, and only the file's base name comes back. null: the dialog was cancelled.
   */
  exportCsv: channel(
    z
      .object({
        ...entityTarget,
        ids: z.array(entityIdSchema).max(2_000_000),
        columns: z
          .array(z.object({ key: z.string().max(200), title: z.string().max(200) }).strict())
          .min(1)
          .max(500),
      })
      .strict(),
    z.object({ fileName: z.string(), rows: z.number() }).nullable(),
  ),
} as const

export const draftsChannels = {
  list: channel(z.object({ profileId: profileRef }).strict(), z.array(draftSchema)),
  save: channel(z.object({ ...entityTarget, key: z.string().min(1).max(200), draft: entityInput, original: entityInput.nullable() }).strict(), z.null()),
  discard: channel(z.object({ ...entityTarget, key: z.string().min(1).max(200) }).strict(), z.null()),
} as const
