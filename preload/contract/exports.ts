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
import { REPORT_LIMITS } from '../../common/limits'
import { presetNameSchema } from './presets'
import { reportDefinitionSchema, sortRuleSchema } from './report-definition'
import { channel, empty, profileRef, requestId } from './primitives'
import { svgProblem } from './svg'
import { pivotFileSchema } from './pivot-file'

export { svgProblem } from './svg'

export const exportFormats = ['xlsx', 'csv', 'tsv'] as const
export type ExportFormat = (typeof exportFormats)[number]
/** What the Exports list holds: report files, and the board pages saved from a board's menu (issue 39). */
export const exportJobFormats = [...exportFormats, 'pdf', 'png'] as const
export type ExportJobFormat = (typeof exportJobFormats)[number]

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
 * metrics, keys from its breakdown and, for a time series, its time key (a category chart: its
 * breakdown, else its key), sort and filter logic as they are, names included, no total, the
 * header as the screens name the columns.
 */
export const exportOptionsSchema = z
  .object({
    format: z.enum(exportFormats),
    dataFields: z.array(z.string().min(1).max(200)).min(1, 'Pick at least one data field').max(200).optional(),
    keys: z.array(z.string().min(1).max(200)).min(1, 'Pick at least one key').max(REPORT_LIMITS.exportKeys).optional(),
    /** A ` Name` column after each key that has a mapping (`include_mappings`). */
    includeNames: z.boolean().optional(),
    /** A `Total` row at the end (`include_total`). */
    includeTotal: z.boolean().optional(),
    /** The header in the platform's names (`granularity_day`, `publisher Name`) instead of the screens' ("Day", "Publisher name"). */
    apiColumnNames: z.boolean().optional(),
    sort: z.array(sortRuleSchema).max(REPORT_LIMITS.sortRules).optional(),
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
  /** The board a pdf/png page was drawn from (its project and report are empty); null or absent for a report file. */
  board: z.string().nullable().optional(),
  format: z.enum(exportJobFormats),
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
  /** What the preview left out (cells cut at a fixed length and marked with "…", a read stopped at its byte bound), as sentences. */
  notes: z.array(z.string()),
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
  /**
   * The keys the export is split by, as main resolves them: the options' own, else the
   * definition's breakdown followed by its time key for a time series (`auto` chosen from the
   * dates: `granularity_day`), a category chart's breakdown or its key. The dialog shows these
   * rather than repeating main's rule.
   */
  keys: z.array(z.string()),
})
export type ExportEstimate = z.infer<typeof exportEstimateSchema>

export const PREVIEW_ROWS = 1_000

/**
 * Chart files (`exports:saveChart`): the current chart as PNG or SVG, or its numbers as csv,
 * under the same rules as every file main writes (save dialog in main, extension forced, no
 * path across the bridge). The page sends the content; main checks it is what it claims.
 *
 * Bounds: 32 MiB of base64 PNG (24 MiB of image) and 32 MiB of SVG. A chart at pixel ratio 2
 * on a maximised 4K screen is a few hundred KB of PNG and a few MB of SVG with every point
 * drawn, so the bound only stops a page from making main hold hundreds of MB. The web host
 * reads at most 8 MiB per call (main/hosts/web/server.ts), well above a real chart too.
 */
export const CHART_FILE_LIMITS = {
  pngBase64Chars: 32 * 1024 * 1024,
  svgChars: 32 * 1024 * 1024,
  /** Rows and columns of the chart's table: categories (plus Total) by series (plus the category columns). */
  csvRows: 200_001,
  csvColumns: 1_002,
  /** Every cell together; a number counts as the 24 characters it may take. */
  csvCells: 2_000_000,
  csvTextChars: 32 * 1024 * 1024,
} as const

/** Standard base64, padded, as `canvas.toDataURL` gives after its `data:image/png;base64,` prefix (which the page drops). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
/** The 8-byte PNG signature followed by the length (13) and type of the IHDR chunk every PNG starts with. */
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]
/** The IEND chunk every complete PNG ends with: length 0, type, CRC. */
const PNG_TAIL = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]

function bytesOf(base64: string): number[] {
  return [...atob(base64)].map((character) => character.charCodeAt(0))
}
const startsWith = (bytes: number[], expected: number[]) => expected.every((byte, index) => bytes[index] === byte)

/** Why base64 text is not a whole PNG, or null: checked on its first and last bytes only, so a 30 MB image costs nothing to check. */
export function pngProblem(base64: string): string | null {
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) return 'is not base64 (without the data: prefix)'
  if (base64.length < 60 || !startsWith(bytesOf(base64.slice(0, 24)), PNG_HEAD)) return 'is not a PNG image'
  // The last 16 characters decode to the last 10-12 bytes; with padding, 8 more characters cover the IEND chunk.
  const tail = bytesOf(base64.slice(-24))
  if (!startsWith(tail.slice(-PNG_TAIL.length), PNG_TAIL)) return 'is a PNG cut short (no IEND chunk at its end)'
  return null
}

const csvCell = z.union([
  z.number(),
  z.null(),
  z
    .string()
    .max(1_000)
    .regex(/^[^\u0000]*$/, 'holds a NUL character'),
])
/** The chart's numbers as a table; main writes it with the app's one csv writer (formula cells neutralised, numbers kept numbers). */
export const chartTableSchema = z
  .object({
    columns: z
      .array(
        z
          .string()
          .max(1_000)
          .regex(/^[^\u0000]*$/, 'holds a NUL character'),
      )
      .min(1)
      .max(CHART_FILE_LIMITS.csvColumns),
    rows: z.array(z.array(csvCell).max(CHART_FILE_LIMITS.csvColumns)).max(CHART_FILE_LIMITS.csvRows),
  })
  .strict()
  .superRefine(({ columns, rows }, context) => {
    let cells = columns.length
    let chars = columns.reduce((sum, column) => sum + column.length, 0)
    for (const [index, row] of rows.entries()) {
      if (row.length !== columns.length) {
        context.addIssue({ code: 'custom', path: ['rows', index], message: `has ${row.length} cells for ${columns.length} columns` })
        return
      }
      cells += row.length
      for (const cell of row) chars += typeof cell === 'string' ? cell.length : 24
    }
    if (cells > CHART_FILE_LIMITS.csvCells || chars > CHART_FILE_LIMITS.csvTextChars)
      context.addIssue({ code: 'custom', path: ['rows'], message: 'is larger than a chart table can be' })
  })
export type ChartTable = z.infer<typeof chartTableSchema>

/** A suggested file name (the report, the preset); main makes it a safe base name and adds the extension. */
const chartFileName = z.string().trim().min(1).max(200)
export const chartFileFormats = ['png', 'svg', 'csv'] as const
export type ChartFileFormat = (typeof chartFileFormats)[number]

export const chartFileSchema = z.discriminatedUnion('format', [
  z
    .object({
      format: z.literal('png'),
      name: chartFileName,
      /** The image as base64, without the `data:image/png;base64,` prefix. */
      content: z
        .string()
        .max(CHART_FILE_LIMITS.pngBase64Chars)
        .superRefine((content, context) => {
          const problem = pngProblem(content)
          if (problem) context.addIssue({ code: 'custom', message: `The content ${problem}` })
        }),
    })
    .strict(),
  z
    .object({
      format: z.literal('svg'),
      name: chartFileName,
      content: z
        .string()
        .max(CHART_FILE_LIMITS.svgChars)
        .superRefine((content, context) => {
          const problem = svgProblem(content)
          if (problem) context.addIssue({ code: 'custom', message: `The content ${problem}` })
        }),
    })
    .strict(),
  z.object({ format: z.literal('csv'), name: chartFileName, table: chartTableSchema }).strict(),
])
export type ChartFile = z.infer<typeof chartFileSchema>

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
  /** Saves the current chart as PNG or SVG, or its numbers as csv, where main's save dialog says; the file's base name, or null when the dialog is cancelled. */
  saveChart: channel(chartFileSchema, z.object({ fileName: z.string() }).nullable()),
  /** Saves the Pivot tab's pivot as csv or xlsx exactly as shown, where main's save dialog says; the file's base name, or null when cancelled. */
  savePivot: channel(pivotFileSchema, z.object({ fileName: z.string() }).nullable()),
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
