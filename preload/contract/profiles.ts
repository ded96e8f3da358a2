/** Connection profiles, the active workspace, and the connection test. Secrets go in, never out. */
import { z } from 'zod'
import { apiErrorSchema } from './errors'
import { channel, empty, httpUrl, name, profileId, profileRef, requestId } from './primitives'

/** The built-in demo workspace's profile id. */
export const DEMO_PROFILE_ID = 'demo'

export const profileAuthInputSchema = z.discriminatedUnion('method', [
  z
    .object({
      method: z.literal('password'),
      username: z.string().trim().min(1, 'Required').max(200),
      /** Absent on update: keep the stored password. */
      password: z.string().min(1, 'Required').max(10_000).optional(),
    })
    .strict(),
  z
    .object({
      method: z.literal('token'),
      /** Absent on update: keep the stored token. */
      token: z.string().trim().min(1, 'Required').max(10_000).optional(),
    })
    .strict(),
])

export const profileInputSchema = z
  .object({
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
  })
  .strict()
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

export const apiCheckSchema = z.union([
  z.object({ ok: z.literal(true), latencyMs: z.number(), tokenExpiresAt: z.string().nullable() }),
  z.object({ ok: z.literal(false), error: apiErrorSchema }),
  /** Not tested, and why (for example no report named to test the reporting API with). */
  z.object({ ok: z.null(), skipped: z.string() }),
])
export type ApiCheck = z.infer<typeof apiCheckSchema>

export const connectionTestSchema = z.object({ workflow: apiCheckSchema, reporting: apiCheckSchema })
export type ConnectionTest = z.infer<typeof connectionTestSchema>

export const profilesChannels = {
  list: channel(empty, z.array(profileSchema)),
  create: channel(profileInputSchema, profileSchema),
  update: channel(z.object({ id: profileId.shape.id, profile: profileInputSchema }).strict(), profileSchema),
  /** A copy with a new id and no secret: the user is asked for the secret again. */
  duplicate: channel(profileId, profileSchema),
  delete: channel(profileId, z.null()),
  /** Signs in afresh and calls one cheap endpoint of each API. */
  test: channel(z.object({ id: profileRef, requestId: requestId.optional() }).strict(), connectionTestSchema),
} as const

export const workspaceChannels = {
  /** Which connection the app works with; `demo` is the built-in demo workspace. */
  state: channel(empty, z.object({ activeProfileId: z.string().nullable(), demoRunning: z.boolean() })),
  /** Makes a profile the active one (starting the embedded demo backend for `demo`); remembered across restarts. */
  activate: channel(z.object({ profileId: profileRef }).strict(), profileSchema),
} as const

export const requestsChannels = {
  cancel: channel(z.object({ requestId }).strict(), z.null()),
} as const
