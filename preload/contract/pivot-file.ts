/**
 * A pivot saved as a file (`exports:savePivot`): the page sends the layout and the result it
 * pivots (the chart's result it holds, run now or kept), main computes the same pivot with
 * common/pivot/model.ts and writes it as shown (totals, number formats, frozen header row)
 * where its save dialog says. No cell table and no path cross the bridge.
 */
import { z } from 'zod'
import { REPORT_LIMITS } from '../../common/limits'
import { pivotLayoutSchema } from './pivot-layout'

/**
 * The part of a chart result a pivot reads (common/pivot/series-records.ts), bounded as input:
 * the page sends the result it holds and everything else in it is dropped on the way in.
 */
const text = z.string().max(4_000)
export const pivotResultSchema = z.object({
  granularity: z.string().min(1).max(200),
  categories: z.array(z.string().max(200)).max(100_000),
  categoryLabels: z.record(z.string().max(200), z.string().max(2_000)).optional(),
  /** Only whether there is one: the comparison's numbers are in its series. */
  comparisonRange: z.object({ start: z.string().max(40), end: z.string().max(40) }).nullable(),
  series: z
    .array(
      z.object({
        key: text,
        metric: z.string().max(200),
        line: text,
        label: text,
        role: z.enum(['line', 'total', 'comparison']),
        values: z.array(z.number().nullable()).max(100_000),
      }),
    )
    .max(5_000),
})

export const pivotFileFormats = ['csv', 'xlsx'] as const
export type PivotFileFormat = (typeof pivotFileFormats)[number]

export const pivotFileSchema = z
  .object({
    format: z.enum(pivotFileFormats),
    /** A suggested file name (the preset, the report); main makes it a safe base name and adds the extension. */
    name: z.string().trim().min(1).max(200),
    layout: pivotLayoutSchema,
    result: pivotResultSchema,
    /** The breakdown keys the result's lines are values of, outermost first. */
    breakdown: z.array(z.string().min(1).max(200)).max(REPORT_LIMITS.breakdownKeys),
    /** How each metric's numbers read (the report's `info`): the file's number formats. */
    fields: z
      .array(z.object({ name: z.string().max(200), displayType: z.enum(['int', 'float', 'percent']), precision: z.number().int().min(0).max(12) }).strict())
      .max(200),
  })
  .strict()
export type PivotFile = z.infer<typeof pivotFileSchema>
