/**
 * Exports: report files (xlsx, csv, tsv) written to the user's disk by jobs main owns.
 *
 * The page describes what to export (a definition or a preset, with export overrides); main
 * builds the platform request, opens the save dialog (the web host: a fixed exports folder),
 * streams the file and reports progress as events. No file path crosses the bridge: a job
 * names its file by base name and its folder by the folder's base name, and open / reveal /
 * preview take the job's id, main looks the path up itself.
 */
import { z } from 'zod'
import { presetNameSchema } from './presets'
import { reportDefinitionSchema, sortRuleSchema } from './reports'
import { channel, empty, profileRef, requestId } from './primitives'

export const exportFormats = ['xlsx', 'csv', 'tsv'] as const
export type ExportFormat = (typeof exportFormats)[number]

/** The platform's caps (the sandbox keeps the same): csv/tsv rows before one `Others` row sums the rest; xlsx rows, the rest cut. */
export const EXPORT_CAPS = { textRows: 1_000_000, xlsxRows: 1_048_570 } as const

/** What to export: the builder's current definition, or a saved preset by name. */
export const exportSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('definition'), definition: reportDefinitionSchema }).strict(),
  z.object({ kind: z.literal('preset'), name: presetNameSchema }).strict(),
])
export type ExportSource = z.infer<typeof exportSourceSchema>

/**
 * The export's own choices; each one left out comes from the definition: data fields from its
 * metrics, keys from its breakdown (or its granularity when it has none), sort and filter logic
 * as they are, names included, no total.
 */
export const exportOptionsSchema = z
  .object({
    format: z.enum(exportFormats),
    dataFields: z.array(z.string().min(1).max(200)).min(1, 'Pick at least one data field').max(200).optional(),
    keys: z.array(z.string().min(1).max(200)).min(1, 'Pick at least one key').max(10).optional(),
    /** A ` Name` column after each key that has a mapping (`include_mappings`). */
    includeNames: z.boolean().optional(),
    /** A `Total` row at the end (`include_total`). */
    includeTotal: z.boolean().optional(),
    sort: z.array(sortRuleSchema).max(10).optional(),
    /** `1 and (2 or 3)` over the definition's filter positions; empty: all filters apply. */
    filterLogic: z.string().max(2_000).optional(),
  })
  .strict()
export type ExportOptions = z.infer<typeof exportOptionsSchema>

const exportInput = { profileId: profileRef, source: exportSourceSchema, options: exportOptionsSchema }
const jobRef = z.object({ jobId: z.string().min(1).max(100) }).strict()

export const exportStates = ['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted'] as const
export type ExportState = (typeof exportStates)[number]

/** A job as the page sees it: live while it runs, then a line of the persisted history. */
export const exportJobSchema = z.object({
  id: z.string(),
  profileId: z.string(),
  /** The preset it came from; null for the builder's own definition. */
  preset: z.string().nullable(),
  project: z.string(),
  report: z.string(),
  format: z.enum(exportFormats),
  /** The file's base name and its folder's base name; never a full path. */
  fileName: z.string(),
  folderName: z.string(),
  state: z.enum(exportStates),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  bytes: z.number(),
  /** Rows after the header (csv/tsv, Others and Total included); null for xlsx or before any were counted. */
  rows: z.number().nullable(),
  durationMs: z.number().nullable(),
  /** The platform summed rows past its cap into an `Others` row (csv/tsv); null until known. */
  capped: z.boolean().nullable(),
  /** What the user should know about the finished file ("The platform capped this export at 1,000,000 rows…"). */
  notes: z.array(z.string()),
  /** Why it failed, as a sentence; null otherwise. */
  error: z.string().nullable(),
})
export type ExportJob = z.infer<typeof exportJobSchema>

export const exportPreviewSchema = z.object({
  fileName: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** The file has rows past the ones shown. */
  more: z.boolean(),
})
export type ExportPreview = z.infer<typeof exportPreviewSchema>

export const exportEstimateSchema = z.object({
  /** Rows the format holds before the platform cuts or sums the rest. */
  cap: z.number(),
  /** csv/tsv: rows past the cap are summed into one `Others` row; xlsx: they are cut. */
  othersRow: z.boolean(),
  /** The rules, as sentences to show before starting. */
  rules: z.array(z.string()),
  /** Rows the export is expected to have, where known; `atLeast` when only a lower bound is (several keys, or the first key has 10,000 values or more). */
  rows: z.object({ count: z.number(), atLeast: z.boolean() }).nullable(),
  /** Why there is no estimate, or what it means ("over the cap: the file will end with an Others row"). */
  note: z.string().nullable(),
})
export type ExportEstimate = z.infer<typeof exportEstimateSchema>

export const PREVIEW_ROWS = 1_000

export const exportsChannels = {
  /** Builds the request, opens the save dialog in main and queues the job; null when the user cancels the dialog. */
  start: channel(z.object(exportInput).strict(), z.object({ jobId: z.string(), fileName: z.string() }).nullable()),
  /** Stops a queued or running job: nothing is left at the target, the temporary file is removed. */
  cancel: channel(jobRef, z.object({ cancelled: z.boolean() })),
  /** The jobs of this run and the persisted history, newest first. */
  list: channel(empty, z.object({ jobs: z.array(exportJobSchema) })),
  /** Opens a finished job's file with the program the system chooses. */
  open: channel(jobRef, z.null()),
  /** Shows a finished job's file in its folder. */
  reveal: channel(jobRef, z.null()),
  /** The first 1,000 rows of a finished csv/tsv job, parsed in main. */
  preview: channel(jobRef, exportPreviewSchema),
  /** The caps explained and, where one is known, how many rows the export will have. */
  estimate: channel(z.object({ ...exportInput, requestId: requestId.optional() }).strict(), exportEstimateSchema),
} as const

export const exportEvents = {
  /** A job moved: bytes so far, rows when countable, mean rate, time since it started. */
  onExportProgress: z.object({
    jobId: z.string(),
    state: z.enum(exportStates),
    bytes: z.number(),
    rows: z.number().nullable(),
    bytesPerSecond: z.number(),
    elapsedMs: z.number(),
  }),
  /** A job ended (done, failed or cancelled): the job as the history keeps it. */
  onExportDone: exportJobSchema,
} as const
