/** Events main pushes to the renderer; validated like results before they are sent. */
import { z } from 'zod'
import { alertEvents } from './alerts'
import { noticeSchema, themeStateSchema } from './app'
import { bulkEvents } from './bulk'
import { menuCommandIdSchema } from './commands'
import { entityRows } from './entities'
import { exportEvents } from './exports'
import { scheduleEvents } from './schedules'

export const events = {
  onNotice: noticeSchema,
  /** A page of a kind arrived during a sync: progress, and the rows themselves so lists fill as they stream in. */
  onSyncProgress: z.object({ profileId: z.string(), kind: z.string(), fetched: z.number(), count: z.number(), rows: entityRows }),
  /** The platform asked us to wait (429); the app is waiting that long before trying again. */
  onThrottled: z.object({ profileId: z.string().nullable(), waitSeconds: z.number(), url: z.string() }),
  /** An `adopsdesk://preset/<name>` link was opened: show that preset. */
  onOpenPreset: z.object({ name: z.string() }),
  /** An `adopsdesk://board/<name>` link was opened: show that board. */
  onOpenBoard: z.object({ name: z.string() }),
  ...exportEvents,
  ...bulkEvents,
  ...scheduleEvents,
  ...alertEvents,
  /** A command chosen in the application menu or by its accelerator (Electron only; see `menuCommands`). */
  onMenuCommand: z.object({ command: menuCommandIdSchema }),
  /** The theme in effect changed: the OS switched, or the setting did. */
  onThemeChanged: themeStateSchema,
} as const
export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<E extends EventName> = z.output<Events[E]>

export const eventNames = Object.keys(events) as EventName[]

export { eventChannel } from './api'
