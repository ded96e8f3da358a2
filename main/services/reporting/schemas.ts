import { z } from 'zod'

/**
 * Shapes of the reporting answers. Lenient on purpose: extra fields pass through untouched
 * (the service adds fields over time) and only what a screen relies on is required.
 */

const nameValue = z.looseObject({ name: z.string(), value: z.unknown() })

export const keyFieldSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  type: z.string().optional(),
  mapping: z.string().nullable().optional(),
  is_segmented: z.number().optional(),
  link: z.string().optional(),
  annotation: z.string().nullable().optional(),
})

export const dataFieldSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  display_type: z.string().optional(),
  display_precision: z.number().optional(),
  display_pattern: z.string().nullable().optional(),
  is_optional: z.number().optional(),
  show_percents: z.number().optional(),
  formula: z.string().nullable().optional(),
  formula_description: z.string().nullable().optional(),
  access: z.string().nullable().optional(),
  annotation: z.string().nullable().optional(),
})

export const reportInfoSchema = z.looseObject({
  status: z.literal('success'),
  timezone: z.number().optional(),
  supports_timezone: z.number().optional(),
  first_date: z.string().optional(),
  last_date: z.string().optional(),
  key_fields: z.array(keyFieldSchema),
  data_fields: z.array(dataFieldSchema),
  audience_sources: z.array(z.looseObject({ name: z.string() })).optional(),
  annotation: z.string().nullable().optional(),
})
export type ReportInfo = z.infer<typeof reportInfoSchema>

export const timeSeriesSchema = z.looseObject({
  status: z.literal('success'),
  mappings: z.record(z.string(), z.record(z.string(), z.string().nullable())).optional(),
  rows: z.array(z.record(z.string(), z.unknown())),
})
export type TimeSeriesResult = z.infer<typeof timeSeriesSchema>

export const audienceSchema = z.looseObject({
  status: z.literal('success'),
  total: z.looseObject({
    dates: z.array(z.string()).optional(),
    data: z.array(nameValue).optional(),
    records_found: z.number().optional(),
    confidence_range: z.unknown().optional(),
  }),
  rows: z.array(
    z.looseObject({
      name: z.array(z.unknown()),
      data: z.array(nameValue),
      confidence_range: z.unknown().optional(),
    }),
  ),
})
export type AudienceResult = z.infer<typeof audienceSchema>

/** Every request names the report; the rest is passed through as the spec describes it. */
export interface ReportTarget {
  project_name: string
  slicer_name: string
}

export type ReportRequest = ReportTarget & Record<string, unknown>
