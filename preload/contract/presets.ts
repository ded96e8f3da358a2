/**
 * Presets, offline results and run history: a saved report is a named `ReportDefinition`, a
 * run leaves its last result on disk and a line in the history, and a request can travel in
 * (paste a platform request or a web-UI link) and out (copy as an API request).
 *
 * No file path crosses the bridge: import and export open main's own dialogs (in the web
 * host, fixed folders in its data folder), and answers name files by their base name only.
 */
import { z } from 'zod'
import { reportDefinitionSchema } from './report-definition'
import { audienceResultSchema, timeSeriesResultSchema } from './reports'
import { channel, empty, profileRef } from './primitives'
import { HIDDEN_CHARACTERS_SENTENCE, hasHiddenCharacters, normalisePresetName, PRESET_NAME_MAX_LENGTH } from './preset-names'

export * from './preset-names'

/**
 * Shown in lists and links; unique without regard to case. Normalised and checked by the rule
 * in preset-names.ts (the page uses the same rule): hidden characters are refused on the name
 * as given, then the name is normalised, so two names that look the same are one preset.
 */
export const presetNameSchema = visibleNameSchema(PRESET_NAME_MAX_LENGTH)

/** A name under the preset names' rule, up to `maxLength` characters: schedules name themselves the same way. */
export function visibleNameSchema(maxLength: number) {
  return z
    .string()
    .refine((value) => !hasHiddenCharacters(value), HIDDEN_CHARACTERS_SENTENCE)
    .overwrite(normalisePresetName)
    .min(1, 'Required')
    .max(maxLength, `Use at most ${maxLength} characters`)
}

export const presetSchema = z.object({
  name: presetNameSchema,
  /** Free text for the team ("Monday revenue call"). */
  description: z.string().max(2_000),
  /** When it was last saved, ISO 8601. */
  savedAt: z.string(),
  definition: reportDefinitionSchema,
})
export type Preset = z.infer<typeof presetSchema>

/** What the presets panel lists and searches, without the whole definition. */
export const presetSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  savedAt: z.string(),
  project: z.string(),
  report: z.string(),
  metrics: z.array(z.string()),
  breakdown: z.array(z.string()),
  dates: z.object({ start: z.string(), end: z.string() }),
})
export type PresetSummary = z.infer<typeof presetSummarySchema>

/** A file that was left alone (a newer format) or skipped (an import that could not be read); its base name and why. */
export const fileProblemSchema = z.object({ fileName: z.string(), reason: z.string() })
export type FileProblem = z.infer<typeof fileProblemSchema>

const nameInput = z.object({ name: presetNameSchema }).strict()

/* ---------- offline results ---------- */

export const runKinds = ['chart', 'audience'] as const
export type RunKind = (typeof runKinds)[number]

export const cachedResultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('chart'), preset: z.string().nullable(), ranAt: z.string(), result: timeSeriesResultSchema }),
  z.object({ kind: z.literal('audience'), preset: z.string().nullable(), ranAt: z.string(), result: audienceResultSchema }),
])
export type CachedResult = z.infer<typeof cachedResultSchema>

/* ---------- run history ---------- */

export const runOutcomes = ['ok', 'error', 'cancelled'] as const
export type RunOutcome = (typeof runOutcomes)[number]

export const historyEntrySchema = z.object({
  id: z.string(),
  ranAt: z.string(),
  profileId: z.string(),
  /** The connection's name when it ran (it may have been renamed or deleted since). */
  connection: z.string(),
  preset: z.string().nullable(),
  kind: z.enum(runKinds),
  project: z.string(),
  report: z.string(),
  /** The tokens as the definition gave them. */
  dates: z.object({ start: z.string(), end: z.string() }),
  /** The absolute dates they stood for; null when the run failed before they were known. */
  range: z.object({ start: z.string(), end: z.string(), timezone: z.number() }).nullable(),
  durationMs: z.number(),
  /** Categories (chart) or rows (audience) the platform answered; null without a result. */
  rows: z.number().nullable(),
  /** Values drawn: categories × series, or rows × values. */
  points: z.number().nullable(),
  outcome: z.enum(runOutcomes),
  /** The sentence the user saw, for errors and cancels. */
  error: z.string().nullable(),
})
export type HistoryEntry = z.infer<typeof historyEntrySchema>

/* ---------- requests in and out ---------- */

export const apiOperations = ['time_series', 'audience', 'export'] as const
export const apiRequestSchema = z.object({
  /** What this call is for, as a sentence fragment: "Ranking: top 10 country by impressions". */
  purpose: z.string(),
  operation: z.enum(apiOperations),
  url: z.string(),
  /** The JSON body, pretty-printed, with `"token": "<ACCESS_TOKEN>"`. */
  body: z.string(),
})
export type ApiRequestCopy = z.infer<typeof apiRequestSchema>

export const presetsChannels = {
  /** Every preset in the presets folder, by name; files of a newer format are listed under `refused`, untouched. */
  list: channel(empty, z.object({ presets: z.array(presetSummarySchema), refused: z.array(fileProblemSchema) })),
  get: channel(nameInput, presetSchema),
  /** `replace: false` is "Save as": a preset of that name (any case) is a conflict. `true` overwrites it. */
  save: channel(
    z.object({ name: presetNameSchema, definition: reportDefinitionSchema, description: z.string().max(2_000).optional(), replace: z.boolean() }).strict(),
    presetSchema,
  ),
  rename: channel(z.object({ name: presetNameSchema, newName: presetNameSchema }).strict(), presetSchema),
  /** Without `newName`: "<name> copy", "<name> copy 2"… */
  duplicate: channel(z.object({ name: presetNameSchema, newName: presetNameSchema.optional() }).strict(), presetSchema),
  /** The deleted preset stays restorable until the app quits. */
  delete: channel(nameInput, z.object({ name: z.string() })),
  restore: channel(nameInput, presetSchema),
  /**
   * Main asks which files (several allowed) and imports each. A name already taken gets
   * " (imported)" unless `replace`; a file identical to the saved preset is left as it is.
   */
  import: channel(
    z.object({ replace: z.boolean().optional() }).strict(),
    z.object({ cancelled: z.boolean(), imported: z.array(presetSummarySchema), skipped: z.array(fileProblemSchema) }),
  ),
  /** Main asks where to save; one name gives one preset file, several give one bundle file. */
  export: channel(
    z.object({ names: z.array(presetNameSchema).min(1).max(5_000) }).strict(),
    z.object({ saved: z.boolean(), fileName: z.string().nullable(), count: z.number() }),
  ),
} as const

/** One kept result asked for: the definition, the preset it runs as, and the budget a chart is cut to. */
const keptResultQuery = {
  definition: reportDefinitionSchema,
  preset: presetNameSchema.nullable().optional(),
  kind: z.enum(runKinds),
  /** A chart comes cut to this many points per series, as reports:run would cut it (main's default when absent). */
  pointBudget: z.number().int().min(50).max(20_000).optional(),
}

/** How many kept results one `results:getMany` reads: a board's tiles at most (BOARD_GRID.maxTiles). */
export const KEPT_RESULTS_PER_CALL = 48

export const resultsChannels = {
  /** The last result kept for this definition (the preset's own first, else an ad hoc run of the same definition); null when none. A chart is reduced to `pointBudget` like a run. */
  get: channel(z.object({ profileId: profileRef, ...keptResultQuery }).strict(), cachedResultSchema.nullable()),
  /**
   * Several kept results in one call, answered in the order asked (null where none is kept or it
   * could not be read): a board opens its tiles with one call, not one per tile.
   */
  getMany: channel(
    z
      .object({
        profileId: profileRef,
        queries: z.array(z.object(keptResultQuery).strict()).min(1).max(KEPT_RESULTS_PER_CALL),
      })
      .strict(),
    z.array(cachedResultSchema.nullable()),
  ),
} as const

export const historyChannels = {
  /** Newest first. `preset: null` keeps ad hoc runs only; absent, every run. */
  list: channel(
    z
      .object({
        profileId: profileRef.optional(),
        search: z.string().max(200).optional(),
        preset: presetNameSchema.nullable().optional(),
        outcome: z.enum(runOutcomes).optional(),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(5_000).optional(),
      })
      .strict(),
    z.object({ total: z.number(), entries: z.array(historyEntrySchema) }),
  ),
  /** One run with the definition it ran, to run it again or open its cached result. */
  get: channel(z.object({ id: z.string().min(1).max(100) }).strict(), historyEntrySchema.extend({ definition: reportDefinitionSchema })),
} as const

/** Paste: a platform request body (JSON, as docs and scripts show it) or a web-UI report URL. */
export const parseRequestChannel = channel(
  z
    .object({
      text: z.string().min(1, 'Paste a request or a link').max(200_000),
      /**
       * The builder's current state, as much of it as is valid: what the paste cannot say (chart
       * options, comparison, the other tab's settings) is kept from it.
       */
      base: reportDefinitionSchema.partial().optional(),
    })
    .strict(),
  z.object({ definition: reportDefinitionSchema, unread: z.array(z.string()) }),
)

/** "Copy as API request": the bodies a run would send, dates as the definition's tokens, the token as a placeholder. */
export const copyRequestChannel = channel(
  z.object({ profileId: profileRef, definition: reportDefinitionSchema, kind: z.enum(runKinds) }).strict(),
  z.object({ requests: z.array(apiRequestSchema), curl: z.string(), notes: z.array(z.string()) }),
)
