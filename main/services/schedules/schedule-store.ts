/**
 * The schedules file (`<data>/schedules/schedules.json`): the schedules, the folders main's
 * dialog chose for them (the full path stays here, the page gets an id and a name), when the
 * failures were last seen (the badge counts failures after it) and the background setting.
 * A versioned document like the other stores: atomic writes, a corrupt file moved aside with a notice.
 *
 * Only the app writes it; the command line reads it (run-due), so both see one list.
 */
import path from 'node:path'
import { z } from 'zod'
import { cadenceSchema, scheduleFileFormats, scheduleTargetSchema, scheduleTimezones } from '@contract'
import type { AtomicFs } from '../files/atomic'
import { createDocumentStore, noticeOnCorrupt, type DocumentStore } from '../files/document-store'
import type { OlderDocument } from '../files/json-file'
import type { Notices } from '../notices'

/**
 * Format history:
 * - 1: every schedule ran a preset, named by `preset`.
 * - 2: `target` names a preset or a board (a board is written as a PDF or PNG file).
 */
export const SCHEDULES_FORMAT = 2

/** Format 1 → 2: each schedule's `preset` becomes its target. Anything else is left for the schema to judge. */
export function migrateSchedules(raw: OlderDocument): unknown {
  if (raw.version !== 1) throw new Error(`format ${raw.version} is not one AdOps Desk ever wrote`)
  const schedules = Array.isArray(raw.schedules) ? raw.schedules : []
  return {
    ...raw,
    version: SCHEDULES_FORMAT,
    schedules: schedules.map((schedule: unknown) => {
      if (typeof schedule !== 'object' || schedule === null) return schedule
      const { preset, ...rest } = schedule as Record<string, unknown>
      return { ...rest, target: { kind: 'preset', name: preset } }
    }),
  }
}

export const storedScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  target: scheduleTargetSchema,
  profileId: z.string(),
  actions: z.object({
    export: z.object({ format: z.enum(scheduleFileFormats), folderId: z.string(), fileNamePattern: z.string() }).nullable(),
    checkAlerts: z.boolean(),
  }),
  cadence: cadenceSchema,
  timezone: z.enum(scheduleTimezones),
  /** The report's offset in minutes when the schedule was saved (timezone `report`); null for the computer's. */
  reportOffsetMinutes: z
    .number()
    .int()
    .min(-14 * 60)
    .max(14 * 60)
    .nullable(),
  enabled: z.boolean(),
  /** Slots before this (ISO 8601) are not missed runs: the schedule did not exist, or was off, then. */
  activeSince: z.string(),
  savedAt: z.string(),
})
export type StoredSchedule = z.infer<typeof storedScheduleSchema>

export const storedFolderSchema = z.object({ id: z.string(), path: z.string() })
export type StoredFolder = z.infer<typeof storedFolderSchema>

const schedulesDocumentSchema = z.object({
  version: z.literal(SCHEDULES_FORMAT),
  schedules: z.array(storedScheduleSchema),
  folders: z.array(storedFolderSchema),
  /** The badge counts failed runs that started after this; null: every failure in the ledger. */
  failuresSeenAt: z.string().nullable(),
  keepRunningInBackground: z.boolean(),
})
export type SchedulesDocument = z.infer<typeof schedulesDocumentSchema>

export const EMPTY_SCHEDULES: SchedulesDocument = {
  version: SCHEDULES_FORMAT,
  schedules: [],
  folders: [],
  failuresSeenAt: null,
  keepRunningInBackground: false,
}

export function schedulesFolder(userDataDir: string): string {
  return path.join(userDataDir, 'schedules')
}

export function createScheduleStore(options: {
  folder: string
  notices: Pick<Notices, 'add'>
  now?: () => Date
  fs?: AtomicFs
}): DocumentStore<SchedulesDocument> {
  return createDocumentStore({
    filePath: path.join(options.folder, 'schedules.json'),
    schema: schedulesDocumentSchema,
    versioning: { version: SCHEDULES_FORMAT, migrate: migrateSchedules },
    fallback: EMPTY_SCHEDULES,
    ...(options.now ? { now: options.now } : {}),
    ...(options.fs ? { fs: options.fs } : {}),
    saveFailed: (code) =>
      `Your schedules could not be saved${code === null ? '' : ` (${code})`}, so the change was not kept. Check that the disk is not full or read-only, and try again.`,
    onCorrupt: noticeOnCorrupt(
      options.notices,
      'warning',
      ({ reason }) =>
        `Your schedules could not be read because ${reason}. The file was moved aside and the list starts empty; nothing runs from it until you schedule again.`,
    ),
  })
}
