/** The app itself: version, platform, what the host can do, notices. */
import { z } from 'zod'
import { channel, empty } from './primitives'

export const noticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type Notice = z.infer<typeof noticeSchema>

/** What the host running the page can do, so the renderer asks instead of guessing which host it is in. */
export const capabilitiesSchema = z.object({
  /** An OS save dialog picks where files go (Electron); without one (the web host) the page asks for a path. */
  nativeSaveDialog: z.boolean(),
})
export type Capabilities = z.infer<typeof capabilitiesSchema>

export const appChannels = {
  info: channel(empty, z.object({
    version: z.string(),
    platform: z.string(),
    keychainAvailable: z.boolean(),
    capabilities: capabilitiesSchema,
    notices: z.array(noticeSchema),
  })),
  dismissNotice: channel(z.object({ id: z.string().max(200) }).strict(), z.null()),
} as const
