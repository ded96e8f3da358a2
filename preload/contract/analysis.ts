/**
 * Local analysis of files (issue 24): a csv/tsv/xlsx opened through main's dialog, or a finished
 * export by its job id, is registered in main and named here by an opaque id, never a path. Its
 * pivots are computed by main's engine and cross the bridge a window at a time (the same
 * PivotWindow the report's pivot draws); the SQL box's rows cross bounded by the row cap.
 */
import { z } from 'zod'
import { pivotLayoutSchema } from './pivot-layout'
import { channel, empty } from './primitives'

const fileId = z.string().min(1).max(100)

/** common/pivot/types.ts' PIVOT_WINDOW_LIMITS (the contract may import only common/'s top files); test/unit/analysis/contract.test.ts keeps them equal. */
export const PIVOT_WINDOW_BOUNDS = { rows: 500, columns: 200 } as const
const PIVOT_WINDOW_LIMITS = PIVOT_WINDOW_BOUNDS

export const analysisColumnSchema = z.object({ name: z.string(), type: z.string() })

export const openedFileSchema = z.object({
  id: fileId,
  /** The file's name, no folder. */
  name: z.string(),
  /** Its table name in the SQL box. */
  table: z.string(),
  columns: z.array(analysisColumnSchema),
  rowCount: z.number().int().nonnegative(),
  /** How it was read: other sheets left out, columns of mixed types read as text. */
  notes: z.array(z.string()),
})
export type OpenedFile = z.infer<typeof openedFileSchema>

export const analysisFilterOperators = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'empty', 'not_empty'] as const
export const analysisFilterSchema = z
  .object({ column: z.string().min(1).max(200), operator: z.enum(analysisFilterOperators), value: z.string().max(1_000) })
  .strict()
export type AnalysisFilterInput = z.infer<typeof analysisFilterSchema>

const pivotHeaderSchema = z.object({ path: z.array(z.string()), kind: z.enum(['item', 'subtotal', 'total', 'others']) })

export const pivotWindowRequestSchema = z
  .object({
    rowStart: z.number().int().nonnegative(),
    rowCount: z.number().int().nonnegative().max(PIVOT_WINDOW_LIMITS.rows),
    columnStart: z.number().int().nonnegative(),
    columnCount: z.number().int().nonnegative().max(PIVOT_WINDOW_LIMITS.columns),
  })
  .strict()

export const pivotWindowSchema = z.object({
  rowCount: z.number().int().nonnegative(),
  columnCount: z.number().int().nonnegative(),
  rowStart: z.number().int().nonnegative(),
  columnStart: z.number().int().nonnegative(),
  rows: z.array(pivotHeaderSchema).max(PIVOT_WINDOW_LIMITS.rows),
  columns: z
    .array(z.object({ header: pivotHeaderSchema, value: z.number().int(), measure: z.enum(['value', 'change', 'percent']) }))
    .max(PIVOT_WINDOW_LIMITS.columns),
  cells: z.array(z.array(z.number().nullable()).max(PIVOT_WINDOW_LIMITS.columns)).max(PIVOT_WINDOW_LIMITS.rows),
})

export const analysisPivotSchema = z.object({ pivotId: z.string(), rowCount: z.number().int().nonnegative(), columnCount: z.number().int().nonnegative() })
export type AnalysisPivot = z.infer<typeof analysisPivotSchema>

/**
 * main/services/analysis/sql-answer.ts' SQL_ANSWER_LIMITS and the row cap, as the contract bounds
 * them: a cell is cut to 32,768 characters and an ellipsis (UTF-16 counts an astral character
 * twice), at most 2,000 columns; test/unit/analysis/contract.test.ts keeps them equal.
 */
export const SQL_ANSWER_BOUNDS = { rows: 10_000, columns: 2_000, cellChars: 32_768 } as const
const sqlText = z.string().max(SQL_ANSWER_BOUNDS.cellChars * 2 + 1)

/** The SQL box's answer: at most the row cap (10,000) rows and 64 MB; `truncated` says more were left out, `notes` what was cut. */
export const sqlRowsSchema = z.object({
  columns: z.array(sqlText).max(SQL_ANSWER_BOUNDS.columns),
  rows: z.array(z.array(z.union([sqlText, z.number(), z.boolean(), z.null()])).max(SQL_ANSWER_BOUNDS.columns)).max(SQL_ANSWER_BOUNDS.rows),
  truncated: z.boolean(),
  notes: z.array(z.string().max(500)).max(4),
})
export type SqlRows = z.infer<typeof sqlRowsSchema>

const savedFileSchema = z.object({ fileName: z.string() })

export const analysisChannels = {
  /** Main's open dialog (the web host: files in its data folder); null when cancelled. */
  openFile: channel(empty, openedFileSchema.nullable()),
  /** A finished export from the Exports list, by its job id. */
  openExport: channel(z.object({ jobId: z.string().min(1).max(100) }).strict(), openedFileSchema),
  files: channel(empty, z.object({ files: z.array(openedFileSchema) })),
  pivot: channel(z.object({ fileId, layout: pivotLayoutSchema, filters: z.array(analysisFilterSchema).max(20) }).strict(), analysisPivotSchema),
  window: channel(z.object({ pivotId: z.string().min(1).max(100), request: pivotWindowRequestSchema }).strict(), pivotWindowSchema),
  sql: channel(z.object({ fileIds: z.array(fileId).min(1).max(20), query: z.string().min(1).max(20_000) }).strict(), sqlRowsSchema),
  /** The pivot as shown, saved as csv or xlsx where main's dialog says; null when cancelled. */
  savePivot: channel(z.object({ pivotId: z.string().min(1).max(100), format: z.enum(['csv', 'xlsx']) }).strict(), savedFileSchema.nullable()),
  /** The SQL box's answer, the query run again, saved as csv; null when cancelled. */
  saveSql: channel(z.object({ fileIds: z.array(fileId).min(1).max(20), query: z.string().min(1).max(20_000) }).strict(), savedFileSchema.nullable()),
  close: channel(z.object({ fileId }).strict(), z.null()),
} as const
