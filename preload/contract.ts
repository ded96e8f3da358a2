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
} as const

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
export type ChannelParsedInput<C extends ChannelName> = z.output<Channels[C]['input']>
export type ChannelResult<C extends ChannelName> = z.output<Channels[C]['output']>

/* ---------- events (main → renderer) ---------- */

export const events = {
  onNotice: noticeSchema,
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
