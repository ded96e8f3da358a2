import { z } from 'zod'

/** A profile as stored on disk: never a secret in here; secrets live in the keychain under `id`. */
export const storedProfileSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
  authUrl: z.string(),
  reportUrl: z.string(),
  serviceId: z.string(),
  reportServiceId: z.string().nullable(),
  authMethod: z.enum(['password', 'token']),
  username: z.string().nullable(),
  // Added after version 1 first shipped: absent in older files means "none".
  defaultProject: z.string().nullable().default(null),
  defaultSlicer: z.string().nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type StoredProfile = z.infer<typeof storedProfileSchema>

export const PROFILES_FILE_VERSION = 1

export const profilesFileSchema = z.object({
  version: z.literal(PROFILES_FILE_VERSION),
  profiles: z.array(storedProfileSchema),
})
export type ProfilesFile = z.infer<typeof profilesFileSchema>

/** What the platform clients need to reach a service: a stored profile, a CLI's flags or the demo workspace. */
export interface ConnectionSettings {
  baseUrl: string
  authUrl: string
  reportUrl: string
  serviceId: string
  /** The reporting service's id when it differs from the workflow one. */
  reportServiceId: string | null
}

/** The credential itself, held in main's memory only for as long as a call needs it. */
export type Credentials =
  | { method: 'password'; username: string; password: string }
  | { method: 'token'; token: string }
