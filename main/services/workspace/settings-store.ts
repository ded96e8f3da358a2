import path from 'node:path'
import { z } from 'zod'
import { logLevelSchema, RESULT_CACHE_MEGABYTES, themeSettingSchema } from '@contract'
import { createDocumentStore, noticeOnCorrupt } from '../files/document-store'
import type { Notices } from '../notices'

export const DEFAULT_RESULT_CACHE_MEGABYTES = RESULT_CACHE_MEGABYTES.default

const settingsSchema = z.object({
  version: z.literal(1),
  /** The connection that was active when the app last ran. */
  activeProfileId: z.string().nullable(),
  /**
   * How much disk the saved report results may take; the least recently used go first. Absent in
   * files of older versions; a value out of bounds (an edited file) falls back rather than
   * costing the other settings.
   */
  resultCacheMegabytes: z.number().int().min(RESULT_CACHE_MEGABYTES.min).max(RESULT_CACHE_MEGABYTES.max).catch(DEFAULT_RESULT_CACHE_MEGABYTES),
  // Added later: a file written before them, or by a newer version with a value this one does
  // not know, keeps its other settings and gets the default here.
  theme: themeSettingSchema.catch('system'),
  logLevel: logLevelSchema.catch('info'),
})
export type Settings = z.infer<typeof settingsSchema>

export interface SettingsStore {
  read(): Promise<Settings>
  update(change: Partial<Omit<Settings, 'version'>>): Promise<Settings>
}

/** Small app preferences in settings.json, written atomically; a corrupt file is moved aside and reported. */
export function createSettingsStore(userDataDir: string, notices: Notices): SettingsStore {
  const document = createDocumentStore({
    filePath: path.join(userDataDir, 'settings.json'),
    schema: settingsSchema,
    fallback: { version: 1, activeProfileId: null, resultCacheMegabytes: DEFAULT_RESULT_CACHE_MEGABYTES, theme: 'system', logLevel: 'info' },
    onCorrupt: noticeOnCorrupt(
      notices,
      'warning',
      ({ reason }) => `Your app settings could not be read because ${reason}. They were reset; the old file was moved aside.`,
    ),
  })

  return {
    read: () => document.read(),
    update: (change) => document.update((current) => ({ ...current, ...change })),
  }
}
