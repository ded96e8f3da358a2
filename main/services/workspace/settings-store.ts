import path from 'node:path'
import { z } from 'zod'
import { ALERT_LAG_HOURS, logLevelSchema, RESULT_CACHE_MEGABYTES, themeSettingSchema } from '@contract'
import type { AtomicFs } from '../files/atomic'
import { createDocumentStore, noticeOnCorrupt } from '../files/document-store'
import type { Notices } from '../notices'

export const DEFAULT_RESULT_CACHE_MEGABYTES = RESULT_CACHE_MEGABYTES.default
export const DEFAULT_ALERT_LAG_HOURS = ALERT_LAG_HOURS.default

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
  /** Hours the platform's data runs behind real time (its docs say 2–4): alert checks never judge buckets inside them. */
  alertLagHours: z.number().min(ALERT_LAG_HOURS.min).max(ALERT_LAG_HOURS.max).catch(DEFAULT_ALERT_LAG_HOURS),
  /** The demo's alert preset was offered once (alerts/demo-seed.ts): a user who deletes it does not get it back. */
  demoAlertsSeeded: z.boolean().catch(false),
})
export type Settings = z.infer<typeof settingsSchema>

export interface SettingsStore {
  read(): Promise<Settings>
  update(change: Partial<Omit<Settings, 'version'>>): Promise<Settings>
}

/**
 * Why a settings change could not be written, as the page shows it: the change was not kept (the store's cache
 * follows the file), and what to do depends on why.
 */
export function settingsSaveFailed(errorCode: string | null): string {
  if (errorCode === 'ENOSPC' || errorCode === 'EDQUOT')
    return 'The disk is full, so your settings could not be saved and the change was not kept. Free some space and try again.'
  if (errorCode === 'EACCES' || errorCode === 'EPERM' || errorCode === 'EROFS')
    return "AdOps Desk may not write in its data folder, so your settings could not be saved and the change was not kept. Check the folder's permissions, or that its disk is not read-only, and try again."
  return `Your settings could not be saved to disk${errorCode === null ? '' : ` (${errorCode})`}, so the change was not kept. Check the disk and try again.`
}

/** Small app preferences in settings.json, written atomically; a corrupt file is moved aside and reported. */
export function createSettingsStore(userDataDir: string, notices: Notices, options: { fs?: AtomicFs } = {}): SettingsStore {
  const document = createDocumentStore({
    filePath: path.join(userDataDir, 'settings.json'),
    schema: settingsSchema,
    saveFailed: settingsSaveFailed,
    fs: options.fs,
    fallback: {
      version: 1,
      activeProfileId: null,
      resultCacheMegabytes: DEFAULT_RESULT_CACHE_MEGABYTES,
      theme: 'system',
      logLevel: 'info',
      alertLagHours: DEFAULT_ALERT_LAG_HOURS,
      demoAlertsSeeded: false,
    },
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
