/**
 * Schedules: a preset that exports a file and/or checks its alerts on a cadence, run by main
 * while the app is open and by the operating system's own scheduler (one dispatcher entry that
 * calls `adops-desk schedules run-due`) while it is not. Every run leaves a line in the ledger.
 *
 * No file path crosses the bridge: a schedule's export folder is one main's folder dialog
 * chose (`schedules:chooseFolder`), named here by an opaque id and its display name only.
 */
import { z } from 'zod'
import { boardFileFormats } from './boards'
import { exportFormats } from './exports'
import { presetNameSchema, visibleNameSchema } from './presets'
import { channel, empty, profileRef } from './primitives'

export const SCHEDULE_LIMITS = {
  /** Schedules kept at once; far above a team's needs, low enough that main never chews on a huge file. */
  schedules: 500,
  name: 200,
  cronExpression: 200,
  fileNamePattern: 200,
  /** Ledger lines in one page. */
  ledgerPage: 500,
  search: 200,
} as const

/** `HH:MM`, 24-hour, in the schedule's timezone. */
export const timeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time as HH:MM (24-hour), for example 07:30')

export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof weekdays)[number]

/**
 * When a schedule runs. `monthly` with a day the month lacks (31 in April) skips that month;
 * `last` is the month's last day.
 */
export const cadenceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('daily'), at: timeOfDaySchema }).strict(),
  z
    .object({
      kind: z.literal('weekdays'),
      days: z
        .array(z.enum(weekdays))
        .min(1, 'Pick at least one day')
        .max(7)
        .refine((days) => new Set(days).size === days.length, 'Pick each day once'),
      at: timeOfDaySchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('monthly'),
      day: z.union([z.number().int().min(1).max(31), z.literal('last')]),
      at: timeOfDaySchema,
    })
    .strict(),
  /** Five fields (minute hour day-of-month month day-of-week) or six with seconds first, as croner reads them. */
  z.object({ kind: z.literal('cron'), expression: z.string().trim().min(1, 'Required').max(SCHEDULE_LIMITS.cronExpression) }).strict(),
])
export type Cadence = z.infer<typeof cadenceSchema>

/** `report`: the report's own timezone (the platform's `info`); `computer`: this computer's. */
export const scheduleTimezones = ['report', 'computer'] as const
export type ScheduleTimezone = (typeof scheduleTimezones)[number]

/**
 * The tokens a file-name pattern may hold; each is replaced at run time (dates as the run resolved them, YYYY-MM-DD).
 * `{preset}` is the name of what the schedule runs (a preset's or a board's).
 */
export const FILE_NAME_TOKENS = ['{preset}', '{start}', '{end}', '{date}'] as const
export const DEFAULT_FILE_NAME_PATTERN = '{preset} {start} to {end}'
/** A board's tiles may each cover other dates, so its files are named by the day of the run. */
export const DEFAULT_BOARD_FILE_NAME_PATTERN = '{preset} {date}'
/** The date tokens a board's file name cannot hold (the board has no one range). */
export const RANGE_TOKENS = ['{start}', '{end}'] as const

/** What a schedule runs: a preset (a file export and/or its alert check) or a board (drawn as one PDF or PNG file). */
export const scheduleTargetKinds = ['preset', 'board'] as const
export type ScheduleTargetKind = (typeof scheduleTargetKinds)[number]
export const scheduleTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('preset'), name: presetNameSchema }).strict(),
  z.object({ kind: z.literal('board'), name: presetNameSchema }).strict(),
])
export type ScheduleTarget = z.infer<typeof scheduleTargetSchema>

/** Every file a schedule can write: a preset's export formats, a board's file formats. */
export const scheduleFileFormats = [...exportFormats, ...boardFileFormats] as const
export type ScheduleFileFormat = (typeof scheduleFileFormats)[number]
/** The formats a target may be written as. */
export function formatsOfTarget(kind: ScheduleTargetKind): readonly ScheduleFileFormat[] {
  return kind === 'board' ? boardFileFormats : exportFormats
}

export const fileNamePatternSchema = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(SCHEDULE_LIMITS.fileNamePattern)
  .refine((pattern) => !/[/\\:*?"<>|\u0000-\u001f]/.test(pattern), 'A file name cannot hold / \\ : * ? " < > | or control characters')
  .refine(
    (pattern) => (pattern.match(/\{[^}]*\}/g) ?? []).every((token) => (FILE_NAME_TOKENS as readonly string[]).includes(token)),
    `Use only the tokens ${FILE_NAME_TOKENS.join(' ')}`,
  )

/** A folder main's dialog chose: an opaque id to send back, and its display name (the folder's own name). */
export const scheduleFolderSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** false when the folder is gone or main cannot write there any more; runs fail with a sentence until another is chosen. */
  available: z.boolean(),
})
export type ScheduleFolder = z.infer<typeof scheduleFolderSchema>

const folderId = z.string().min(1).max(100)

/** What the schedule form sends. Without `id` a new schedule is made; with one, that schedule is replaced. */
export const scheduleDraftSchema = z
  .object({
    id: z.string().min(1).max(100).optional(),
    /** The preset names' rule: the name reaches the terminal and notifications, so no control or invisible character. */
    name: visibleNameSchema(SCHEDULE_LIMITS.name),
    target: scheduleTargetSchema,
    /** The connection the preset (or every tile of the board) runs against. */
    profileId: profileRef,
    actions: z
      .object({
        export: z
          .object({ format: z.enum(scheduleFileFormats), folderId, fileNamePattern: fileNamePatternSchema })
          .strict()
          .nullable(),
        checkAlerts: z.boolean(),
      })
      .strict()
      .refine((actions) => actions.export !== null || actions.checkAlerts, 'Choose at least one action: export a file or check alerts'),
    cadence: cadenceSchema,
    timezone: z.enum(scheduleTimezones),
    enabled: z.boolean(),
  })
  .strict()
  .superRefine((draft, context) => {
    const exported = draft.actions.export
    if (exported !== null && !formatsOfTarget(draft.target.kind).includes(exported.format))
      context.addIssue({
        code: 'custom',
        path: ['actions', 'export', 'format'],
        message: `A ${draft.target.kind} is written as ${formatsOfTarget(draft.target.kind)
          .map((format) => format.toUpperCase())
          .join(', ')}: choose one of those`,
      })
    if (draft.target.kind !== 'board') return
    if (exported === null) context.addIssue({ code: 'custom', path: ['actions'], message: 'A board schedule writes the board as a file: choose its folder' })
    if (draft.actions.checkAlerts)
      context.addIssue({ code: 'custom', path: ['actions'], message: "A board has no alert rules of its own: schedule its presets' alert checks" })
    if (exported !== null && RANGE_TOKENS.some((token) => exported.fileNamePattern.includes(token)))
      context.addIssue({
        code: 'custom',
        path: ['actions', 'export', 'fileNamePattern'],
        message: "A board's tiles may each cover other dates, so its file name cannot hold {start} or {end}: use {date}",
      })
    if (draft.timezone === 'report')
      context.addIssue({
        code: 'custom',
        path: ['timezone'],
        message: "A board's tiles may come from reports in other timezones: run it in this computer's timezone",
      })
  })
export type ScheduleDraft = z.infer<typeof scheduleDraftSchema>

export const runOutcomesOfSchedules = ['ok', 'failed', 'skipped'] as const
export type ScheduleRunOutcome = (typeof runOutcomesOfSchedules)[number]
export const runSources = ['app', 'os'] as const
export type RunSource = (typeof runSources)[number]

/** One line of the run ledger. */
export const ledgerEntrySchema = z.object({
  id: z.string(),
  scheduleId: z.string(),
  scheduleName: z.string(),
  /** What it ran (lines written before boards could be scheduled are read as presets). */
  target: scheduleTargetSchema,
  /** Who ran it: the app's scheduler, or the OS entry through the command line. */
  source: z.enum(runSources),
  /** `schedule`: its cadence came due; `manual`: Run now (or `schedules run NAME`). */
  trigger: z.enum(['schedule', 'manual']),
  /** The slot it was due at (ISO 8601); null for a manual run. */
  plannedAt: z.string().nullable(),
  startedAt: z.string(),
  durationMs: z.number(),
  /** `skipped`: another run of the same schedule was still going (the app's or the OS entry's), so this one did not start. */
  outcome: z.enum(runOutcomesOfSchedules),
  /** It started well after its slot (the machine was off or asleep, or the app closed): both times are above. */
  late: z.boolean(),
  /** The file written, by its base name; null when there was none. */
  fileName: z.string().nullable(),
  /** Alerts that fired; null when the schedule does not check alerts or the check did not finish. */
  alertsFired: z.number().nullable(),
  /** A board's tiles drawn with "No data" (no result, a failed run, a deleted preset), each with why; null for a preset. */
  missingTiles: z.array(z.object({ title: z.string(), reason: z.string() })).nullable(),
  /** What went wrong, as a sentence that says what to do; null on success. */
  error: z.string().nullable(),
  /** Tries it took (network failures are tried again a few times). */
  attempts: z.number(),
})
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>

/** The operating system's entry (one for all schedules) that runs them while the app is closed. */
export const osEntryStateSchema = z.object({
  /** What this computer's scheduler is: a systemd user timer, a crontab line, a LaunchAgent, a Task Scheduler task; null where none is supported. */
  kind: z.enum(['systemd', 'cron', 'launchd', 'task-scheduler']).nullable(),
  installed: z.boolean(),
  /** The last time the OS entry ran a schedule (from the ledger's `os` lines); null when never. */
  lastRunAt: z.string().nullable(),
  /** Why it cannot be installed or read here, as a sentence; null when fine. */
  problem: z.string().nullable(),
})
export type OsEntryState = z.infer<typeof osEntryStateSchema>

export const scheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  target: scheduleTargetSchema,
  profileId: z.string(),
  actions: z.object({
    export: z.object({ format: z.enum(scheduleFileFormats), folder: scheduleFolderSchema, fileNamePattern: z.string() }).nullable(),
    checkAlerts: z.boolean(),
  }),
  cadence: cadenceSchema,
  timezone: z.enum(scheduleTimezones),
  enabled: z.boolean(),
  /** The cadence in words ("Weekdays Mon, Wed at 07:30, report's timezone"). */
  cadenceText: z.string(),
  /** The next slot (ISO 8601); null when disabled or when the cadence never fires. */
  nextRunAt: z.string().nullable(),
  /** Why there is no next run when enabled ("This cron expression never fires…"); null otherwise. */
  problem: z.string().nullable(),
  /** The latest ledger line of this schedule; null before its first run. */
  lastRun: ledgerEntrySchema.nullable(),
  /** A run of it is going now (in the app or through the OS entry). */
  running: z.boolean(),
  /** When the OS entry last ran this schedule; null when never. */
  osLastRunAt: z.string().nullable(),
})
export type Schedule = z.infer<typeof scheduleSchema>

export const schedulesStateSchema = z.object({
  schedules: z.array(scheduleSchema),
  osEntry: osEntryStateSchema,
  /** Failed runs not yet seen in the ledger: the badge. */
  failureCount: z.number(),
  /** Closing the window leaves the app in the tray / menu bar so schedules keep running (Electron only). */
  keepRunningInBackground: z.boolean(),
  /** The host can stay in the tray / menu bar (false in the web host). */
  backgroundSupported: z.boolean(),
})
export type SchedulesState = z.infer<typeof schedulesStateSchema>

const scheduleRef = z.object({ id: z.string().min(1).max(100) }).strict()

export const schedulesChannels = {
  /** Every schedule with its next run, last outcome and OS entry status; the badge count; the background setting. */
  list: channel(empty, schedulesStateSchema),
  /** Creates or replaces a schedule; the scheduler re-arms at once. A preset, folder or connection that is gone is a validation error. */
  save: channel(scheduleDraftSchema, scheduleSchema),
  /** Deletes a schedule (its ledger lines stay); the OS entry is removed with the last schedule. */
  delete: channel(scheduleRef, z.object({ id: z.string() })),
  /** Runs it now, whatever its cadence (skipped when a run of it is going); resolves with its ledger line when it ends. */
  runNow: channel(scheduleRef, ledgerEntrySchema),
  /** Ledger lines, newest first, filtered and searched (schedule and preset names, file names, error sentences). */
  ledger: channel(
    z
      .object({
        scheduleId: z.string().min(1).max(100).optional(),
        search: z.string().max(SCHEDULE_LIMITS.search).optional(),
        outcome: z.enum(runOutcomesOfSchedules).optional(),
        source: z.enum(runSources).optional(),
        late: z.boolean().optional(),
        offset: z.number().int().min(0).max(1_000_000).optional(),
        limit: z.number().int().min(1).max(SCHEDULE_LIMITS.ledgerPage).optional(),
      })
      .strict(),
    z.object({ total: z.number(), entries: z.array(ledgerEntrySchema) }),
  ),
  /** The failures so far have been seen: the badge goes back to 0. */
  clearFailures: channel(empty, z.object({ failureCount: z.number() })),
  /** Main's folder dialog (the web host: its fixed exports folder); null when the user cancels. */
  chooseFolder: channel(empty, z.object({ id: z.string(), name: z.string() }).nullable()),
  /** Writes the OS scheduler's entry (asked for, never done behind the user's back). */
  installEntry: channel(empty, osEntryStateSchema),
  /** Removes the OS scheduler's entry; schedules then run only while the app is open. */
  removeEntry: channel(empty, osEntryStateSchema),
  /** Keeps the app in the tray / menu bar when its window closes; remembered across restarts. */
  setKeepRunning: channel(z.object({ keepRunning: z.boolean() }).strict(), z.object({ keepRunningInBackground: z.boolean() })),
} as const

export const scheduleEvents = {
  /** A scheduled or manual run ended: its ledger line and the badge count after it. */
  onScheduleRun: z.object({ entry: ledgerEntrySchema, failureCount: z.number() }),
} as const
