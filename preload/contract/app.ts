/** The app itself: version, platform, notices. */
import { z } from 'zod'
import { channel, empty } from './primitives'

export const noticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type Notice = z.infer<typeof noticeSchema>

export const appChannels = {
  info: channel(empty, z.object({
    version: z.string(),
    platform: z.string(),
    keychainAvailable: z.boolean(),
    notices: z.array(noticeSchema),
  })),
  dismissNotice: channel(z.object({ id: z.string().max(200) }).strict(), z.null()),
} as const
