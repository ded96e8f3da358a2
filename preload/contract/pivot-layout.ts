/**
 * A pivot's layout as the contract checks it (a preset remembers it in `chart.pivot`; the page
 * sends it with an export of the pivot). The same shape as common/pivot/types.ts' PivotLayout,
 * which the page and main compute with; test/unit/pivot/layout-schema.test.ts keeps them equal.
 */
import { z } from 'zod'

const fieldName = z.string().min(1).max(200)
const direction = z.enum(['asc', 'desc'])
/** A leaf column's header path, or null for the row total. */
const columnPath = z.array(z.string().max(2_000)).max(20).nullable()
const valueIndex = z.number().int().min(0).max(19)

export const pivotLayoutSchema = z
  .object({
    rows: z.array(fieldName).max(8),
    columns: z.array(fieldName).max(4),
    values: z
      .array(z.object({ field: fieldName, aggregate: z.enum(['sum', 'avg', 'min', 'max', 'count']) }).strict())
      .min(1)
      .max(20),
    sort: z.discriminatedUnion('by', [
      z.object({ by: z.literal('label'), direction }).strict(),
      z.object({ by: z.literal('value'), value: valueIndex, column: columnPath, direction }).strict(),
      z.object({ by: z.literal('change'), value: valueIndex, column: columnPath, measure: z.enum(['absolute', 'percent']), direction }).strict(),
    ]),
    top: z.number().int().min(1).max(10_000).nullable(),
    subtotals: z.boolean(),
    showChange: z.boolean(),
  })
  .strict()
export type PivotLayoutInput = z.infer<typeof pivotLayoutSchema>
