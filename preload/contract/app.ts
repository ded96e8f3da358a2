/** The app itself: version, platform, what the host can do, notices, theme, About, logs. */
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
  /**
   * An application menu owns the shortcuts of `menuCommands` and sends `onMenuCommand` (Electron).
   * Without one (the web host) the page binds those keys itself.
   */
  nativeMenu: z.boolean().default(false),
  /** `app:openDataFolder` / `app:openLogsFolder` open the OS file manager; false where there is none to open. */
  openFolders: z.boolean().default(false),
})
/**
 * The input side: a value may leave out what its host lacks (the page's placeholder before
 * app:info answers); what crosses the bridge always has every field.
 */
export type Capabilities = z.input<typeof capabilitiesSchema>

export const themeSettings = ['system', 'light', 'dark'] as const
export const themeSettingSchema = z.enum(themeSettings)
export type ThemeSetting = z.infer<typeof themeSettingSchema>

export const themeStateSchema = z.object({
  /** What the user chose: follow the OS, or one pinned. */
  setting: themeSettingSchema,
  /**
   * The theme in effect. null where main cannot see the OS's choice (the web host with
   * `system`): the page follows `prefers-color-scheme` then.
   */
  effective: z.enum(['light', 'dark']).nullable(),
})
export type ThemeState = z.infer<typeof themeStateSchema>

export const logLevels = ['error', 'warn', 'info', 'debug'] as const
export const logLevelSchema = z.enum(logLevels)
export type LogLevel = z.infer<typeof logLevelSchema>

export const licenseSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** The SPDX expression the package declares ("MIT", "(MIT OR Apache-2.0)"), or "UNKNOWN". */
  license: z.string(),
  /** The package's own license file, when it ships one. */
  text: z.string().nullable(),
})
export type License = z.infer<typeof licenseSchema>

export const aboutSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  /** null outside Electron (the web host runs in plain Node). */
  electron: z.string().nullable(),
  chrome: z.string().nullable(),
  node: z.string(),
  /** Where the app keeps its data, in words: no path crosses the bridge; `app:openDataFolder` shows the folder. */
  dataFolder: z.string(),
  /** Bundled dependencies, generated at build time (build/licenses.mjs). */
  licenses: z.array(licenseSchema),
})
export type About = z.infer<typeof aboutSchema>

/** The size the saved report results may take on disk, in MB (settings; least recently used evicted beyond it). */
export const RESULT_CACHE_MEGABYTES = { min: 10, max: 100_000, default: 200 } as const

export const resultCacheStateSchema = z.object({
  limitMegabytes: z.number().int(),
  /** What the saved results take now, and how many there are. */
  usedBytes: z.number().int().nonnegative(),
  entries: z.number().int().nonnegative(),
})
export type ResultCacheState = z.infer<typeof resultCacheStateSchema>

/** The alert checks' data-lag setting, in hours (settings.json `alertLagHours`). */
export const ALERT_LAG_HOURS = { min: 0, max: 48, default: 4 } as const
export const alertLagStateSchema = z.object({ hours: z.number() })

/** Bounds of an error report from the page; the page cuts longer text before sending. */
export const RENDERER_ERROR_LIMITS = { message: 2_000, stack: 10_000 } as const

export const appChannels = {
  info: channel(
    empty,
    z.object({
      version: z.string(),
      platform: z.string(),
      keychainAvailable: z.boolean(),
      capabilities: capabilitiesSchema,
      notices: z.array(noticeSchema),
      theme: themeStateSchema,
      logLevel: logLevelSchema,
    }),
  ),
  dismissNotice: channel(z.object({ id: z.string().max(200) }).strict(), z.null()),
  about: channel(empty, aboutSchema),
  /** Pins a theme or follows the OS again; remembered across restarts; `onThemeChanged` follows. */
  setTheme: channel(z.object({ theme: themeSettingSchema }).strict(), themeStateSchema),
  /** How much the log file records; remembered across restarts. */
  setLogLevel: channel(z.object({ level: logLevelSchema }).strict(), z.null()),
  /** The offline results' size limit and what they take now (counting them reads the results folder once). */
  resultCache: channel(empty, resultCacheStateSchema),
  /** Changes the size limit; remembered across restarts; a smaller one evicts the least recently used results at once. */
  setResultCacheLimit: channel(
    z.object({ megabytes: z.number().int().min(RESULT_CACHE_MEGABYTES.min).max(RESULT_CACHE_MEGABYTES.max) }).strict(),
    resultCacheStateSchema,
  ),
  /** Hours the platform's data runs behind (its docs say 2–4): alert checks never judge buckets inside them. */
  alertLagHours: channel(empty, alertLagStateSchema),
  /** Changes the data lag alert checks leave out; remembered across restarts; the next check uses it. */
  setAlertLagHours: channel(z.object({ hours: z.number().min(ALERT_LAG_HOURS.min).max(ALERT_LAG_HOURS.max) }).strict(), alertLagStateSchema),
  openDataFolder: channel(empty, z.null()),
  openLogsFolder: channel(empty, z.null()),
  /** An error nothing in the page caught (window.onerror, unhandledrejection): logged, and shown once as a notice. */
  reportRendererError: channel(
    z
      .object({
        kind: z.enum(['error', 'unhandledrejection']),
        message: z.string().max(RENDERER_ERROR_LIMITS.message),
        stack: z.string().max(RENDERER_ERROR_LIMITS.stack).optional(),
      })
      .strict(),
    z.null(),
  ),
} as const
