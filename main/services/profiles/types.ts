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
