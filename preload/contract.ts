/**
 * THE one list of what crosses the bridge between the renderer and main.
 *
 * Every channel has a name (`domain:verb`), a zod schema for its input and a zod
 * schema for its result. main registers exactly these handlers, the preload
 * exposes exactly these functions (as `window.api.domain.verb`), the web test
 * host serves exactly these, and a snapshot test keeps the list visible.
 *
 * Nothing secret ever appears in a result schema: the renderer sees
 * `hasSecret`, never a password or a token.
 */
import { z } from 'zod'

/* ---------- shared shapes ---------- */

/** Strings coming from the page are bounded so a hostile page cannot make main chew on megabytes. */
const text = (max = 2_000) => z.string().max(max)
const name = z.string().trim().min(1, 'Required').max(200)

export const errorCodes = [
  'bad_input', // the renderer sent something the contract does not accept
  'validation', // the platform (or our form checks) rejected the fields
  'auth', // sign-in rejected
  'forbidden',
  'not_found',
  'method_not_allowed',
  'dependents', // 406: other entities depend on this one
  'conflict', // 409
  'throttled', // 429
  'server',
  'timeout',
  'network',
  'bad_response', // the platform answered something we cannot read (YAML, HTML, wrong shape)
  'cancelled',
  'keychain_unavailable',
  'storage', // a file on disk could not be read or written
  'internal',
] as const
export type ErrorCode = (typeof errorCodes)[number]

export const apiErrorSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type ApiErrorShape = z.infer<typeof apiErrorSchema>

/** What every bridge call resolves to: the renderer never receives a thrown exception across the bridge. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ApiErrorShape }

const httpUrl = text(2_000)

export const profileAuthInputSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('password'),
    username: z.string().trim().min(1, 'Required').max(200),
    /** Absent on update: keep the stored password. */
    password: z.string().min(1, 'Required').max(10_000).optional(),
  }).strict(),
  z.object({
    method: z.literal('token'),
    /** Absent on update: keep the stored token. */
    token: z.string().trim().min(1, 'Required').max(10_000).optional(),
  }).strict(),
])

export const profileInputSchema = z.object({
  name,
  baseUrl: httpUrl,
  authUrl: httpUrl,
  reportUrl: httpUrl,
  serviceId: z.string().trim().min(1, 'Required').max(200),
  reportServiceId: z.string().trim().max(200).optional(),
  auth: profileAuthInputSchema,
  /** The report the reporting half of "Test connection" asks about (and the report builder starts on). */
  defaultProject: z.string().trim().max(200).optional(),
  defaultSlicer: z.string().trim().max(200).optional(),
  /** When the keychain is unavailable the user may keep the secret in memory for this session only. */
  sessionOnlySecret: z.boolean().optional(),
}).strict()
export type ProfileInput = z.infer<typeof profileInputSchema>

export const profileSchema = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  authUrl: z.string(),
  reportUrl: z.string(),
  serviceId: z.string(),
  reportServiceId: z.string().nullable(),
  authMethod: z.enum(['password', 'token']),
  username: z.string().nullable(),
  defaultProject: z.string().nullable(),
  defaultSlicer: z.string().nullable(),
  hasSecret: z.boolean(),
  /** Where the secret lives: the OS keychain, this session's memory, or nowhere yet. */
  secretStorage: z.enum(['keychain', 'session', 'none']),
  isDemo: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Profile = z.infer<typeof profileSchema>

export const noticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type Notice = z.infer<typeof noticeSchema>

const profileId = z.object({ id: z.string().min(1).max(100) }).strict()
const empty = z.object({}).strict()

/** Lets the renderer cancel a long call through `requests:cancel`. */
const requestId = z.string().min(1).max(100)
const profileRef = z.string().min(1).max(100)

export const apiCheckSchema = z.union([
  z.object({ ok: z.literal(true), latencyMs: z.number(), tokenExpiresAt: z.string().nullable() }),
  z.object({ ok: z.literal(false), error: apiErrorSchema }),
  /** Not tested, and why (for example no report named to test the reporting API with). */
  z.object({ ok: z.null(), skipped: z.string() }),
])
export type ApiCheck = z.infer<typeof apiCheckSchema>

/* ---------- entities ---------- */

export const entityKindSchema = z.string().regex(/^[a-z][a-z0-9_]*$/, 'Kinds are lower-case path names such as publishers or ad_units').max(100)
export const entityIdSchema = z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().min(1).max(200)])
export type EntityId = z.infer<typeof entityIdSchema>

const MAX_ENTITY_JSON = 1_000_000
/** An entity as the renderer sends it: plain JSON, bounded in size (the platform refuses bodies over 1 MiB). */
const entityInput = z
  .record(z.string().max(200), z.json())
  .refine((value) => JSON.stringify(value).length <= MAX_ENTITY_JSON, 'The entity is too large (over 1 MB)')

/** Entities going to the page are checked for shape only: they come from the platform, not from our secrets, and a 100,000-row list must not be copied field by field. */
export type Entity = Record<string, unknown> & { id: EntityId }
const entityOutput = z.custom<Entity>((value) => typeof value === 'object' && value !== null && !Array.isArray(value) && 'id' in value, 'expected an entity with an id')
const entityRows = z.custom<Entity[]>((value) => Array.isArray(value), 'expected a list of entities')

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

const entityTarget = { profileId: profileRef, kind: entityKindSchema }

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

/* ---------- channels ---------- */

type ChannelSpec<I extends z.ZodType, O extends z.ZodType> = { input: I; output: O }
const channel = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): ChannelSpec<I, O> => ({ input, output })

export const channels = {
  'app:info': channel(empty, z.object({
    version: z.string(),
    platform: z.string(),
    keychainAvailable: z.boolean(),
    notices: z.array(noticeSchema),
  })),
  'app:dismissNotice': channel(z.object({ id: z.string().max(200) }).strict(), z.null()),

  'profiles:list': channel(empty, z.array(profileSchema)),
  'profiles:create': channel(profileInputSchema, profileSchema),
  'profiles:update': channel(z.object({ id: profileId.shape.id, profile: profileInputSchema }).strict(), profileSchema),
  /** A copy with a new id and no secret: the user is asked for the secret again. */
  'profiles:duplicate': channel(profileId, profileSchema),
  'profiles:delete': channel(profileId, z.null()),
  /** Signs in afresh and calls one cheap endpoint of each API. */
  'profiles:test': channel(z.object({ id: profileRef, requestId: requestId.optional() }).strict(), z.object({ workflow: apiCheckSchema, reporting: apiCheckSchema })),

  /** Which connection the app works with; `demo` is the built-in demo workspace. */
  'workspace:state': channel(empty, z.object({ activeProfileId: z.string().nullable(), demoRunning: z.boolean() })),
  /** Makes a profile the active one (starting the embedded demo backend for `demo`); remembered across restarts. */
  'workspace:activate': channel(z.object({ profileId: profileRef }).strict(), profileSchema),

  'requests:cancel': channel(z.object({ requestId }).strict(), z.null()),

  'entities:kinds': channel(empty, z.array(entityKindSpecSchema)),
  /** The local copy of a kind's list: instant, and readable offline. `syncedAt` null: never synced. */
  'entities:mirror': channel(
    z.object({
      ...entityTarget,
      /** A slice, so the first screenful of a 100,000-row list can be painted before the rest crosses the bridge. */
      offset: z.number().int().min(0).max(100_000_000).optional(),
      limit: z.number().int().min(1).max(100_000_000).optional(),
    }).strict(),
    z.object({ rows: entityRows, syncedAt: z.string().nullable(), total: z.number() }),
  ),
  /** Fetches every page again (progress and rows arrive as onSyncProgress events) and stores the mirror. */
  'entities:sync': channel(z.object({ ...entityTarget, requestId: requestId.optional() }).strict(), z.object({ count: z.number(), syncedAt: z.string() })),
  'entities:get': channel(z.object({ ...entityTarget, id: entityIdSchema }).strict(), entityOutput),
  'entities:create': channel(z.object({ ...entityTarget, entity: entityInput }).strict(), entityOutput),
  /**
   * Re-reads the entity first. If the server's copy differs from `original` and `force` is not
   * set, nothing is written and the server's copy comes back to be resolved by the user.
   */
  'entities:update': channel(
    z.object({ ...entityTarget, id: entityIdSchema, original: entityInput, changes: entityInput, force: z.boolean().optional() }).strict(),
    z.discriminatedUnion('status', [
      z.object({ status: z.literal('saved'), entity: entityOutput }),
      z.object({ status: z.literal('conflict'), server: entityOutput, changedFields: z.array(z.string()) }),
    ]),
  ),
  /** A 406 comes back as a `dependents` error whose details list the dependents found in the local mirrors. */
  'entities:delete': channel(z.object({ ...entityTarget, id: entityIdSchema }).strict(), z.null()),
  /** Writes the given rows of the mirror, in the given order and columns, to a csv file (a save dialog in the app when no path is given). */
  'entities:exportCsv': channel(
    z.object({
      ...entityTarget,
      ids: z.array(entityIdSchema).max(2_000_000),
      columns: z.array(z.object({ key: z.string().max(200), title: z.string().max(200) }).strict()).min(1).max(500),
      path: z.string().min(1).max(4_096).optional(),
    }).strict(),
    z.object({ path: z.string(), rows: z.number() }).nullable(),
  ),

  'drafts:list': channel(z.object({ profileId: profileRef }).strict(), z.array(draftSchema)),
  'drafts:save': channel(z.object({ ...entityTarget, key: z.string().min(1).max(200), draft: entityInput, original: entityInput.nullable() }).strict(), z.null()),
  'drafts:discard': channel(z.object({ ...entityTarget, key: z.string().min(1).max(200) }).strict(), z.null()),
} as const

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
export type ChannelParsedInput<C extends ChannelName> = z.output<Channels[C]['input']>
export type ChannelResult<C extends ChannelName> = z.output<Channels[C]['output']>

/* ---------- events (main → renderer) ---------- */

export const events = {
  onNotice: noticeSchema,
  /** A page of a kind arrived during a sync: progress, and the rows themselves so lists fill as they stream in. */
  onSyncProgress: z.object({ profileId: z.string(), kind: z.string(), fetched: z.number(), count: z.number(), rows: entityRows }),
  /** The platform asked us to wait (429); the app is waiting that long before trying again. */
  onThrottled: z.object({ profileId: z.string().nullable(), waitSeconds: z.number(), url: z.string() }),
} as const
export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<E extends EventName> = z.output<Events[E]>

/** The IPC channel an event travels on. */
export const eventChannel = (event: EventName): string => `event:${event}`

/* ---------- the shape of window.api, derived from the lists above ---------- */

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never

export type Api = {
  [D in DomainOf<ChannelName>]: {
    [C in ChannelName as C extends `${D}:${infer V}` ? V : never]: (input: ChannelInput<C>) => Promise<Outcome<ChannelResult<C>>>
  }
} & {
  [E in EventName]: (listener: (payload: EventPayload<E>) => void) => () => void
}

export const channelNames = Object.keys(channels) as ChannelName[]
export const eventNames = Object.keys(events) as EventName[]

/** Splits `domain:verb`; the one place that knows how a channel name maps onto window.api. */
export function splitChannel(name: string): { domain: string; verb: string } {
  const at = name.indexOf(':')
  return { domain: name.slice(0, at), verb: name.slice(at + 1) }
}
