import { z } from 'zod'
import { MATCH_MODES } from './filters'
import { badRequest } from './errors'
import type { ReportError } from './errors'

/** Schemas of reporting request bodies. Unknown fields are ignored, as the real service does. */

const binary = z.literal([0, 1])

export const filterSchema = z.object({
  name: z.string().min(1),
  value: z.array(z.string()).min(1),
  match: z.enum(MATCH_MODES),
  case_insensitive: binary.optional(),
  search_mappings: binary.optional(),
})

export const DATA_FILTER_OPERATORS = ['>', '>=', '<', '<=', '=', '!='] as const
export type DataFilterOperator = (typeof DATA_FILTER_OPERATORS)[number]

export const dataFilterSchema = z.object({
  name: z.string().min(1),
  operator: z.enum(DATA_FILTER_OPERATORS),
  value: z.number(),
})

export const orderTermSchema = z.object({
  name: z.string().min(1),
  direction: z.enum(['asc', 'desc']).optional(),
  mapping: binary.optional(),
})

const rangeFields = {
  start_date: z.string(),
  end_date: z.string(),
  timezone: z.int().min(-12).max(12).optional(),
  filters: z.array(filterSchema).optional(),
  filter_template: z.string().optional(),
}

const tableFields = {
  data_filters: z.array(dataFilterSchema).optional(),
  data_filter_template: z.string().optional(),
  order_by: z.union([orderTermSchema, z.array(orderTermSchema)], { error: 'must be an object {name, direction, mapping} or an array of them' }).optional(),
  data_field_options: z.array(z.record(z.string(), z.unknown()), { error: 'must be an array of objects' }).optional(),
}

export const commonSchema = z.object({
  slicer_name: z.string(),
  project_name: z.string(),
  token: z.string().optional(),
})

export const timeSeriesSchema = z.object({
  ...rangeFields,
  ...tableFields,
  granularity: z.string(),
  limit: z.int().min(1).max(10_000).optional(),
  split_by: z.array(z.string()),
  chart_lines: z.array(z.string()).min(1).max(50),
  data_field: z.string(),
})

export const audienceSchema = z.object({
  ...rangeFields,
  audience_rows_limit: z.int().min(1).optional(),
  split_by: z.array(z.string()),
})

export const exportSchema = z.object({
  ...rangeFields,
  ...tableFields,
  split_by: z.union([z.string(), z.array(z.string()).min(1)], { error: 'must be a key field name or an array of them' }),
  include_mappings: binary.optional(),
  include_total: binary.optional(),
  export_format: z.string(),
  data_fields: z.array(z.string()).optional(),
})

export type FilterBody = z.infer<typeof filterSchema>
export type DataFilterBody = z.infer<typeof dataFilterSchema>
export type OrderTermBody = z.infer<typeof orderTermSchema>
export type TimeSeriesBody = z.infer<typeof timeSeriesSchema>
export type AudienceBody = z.infer<typeof audienceSchema>
export type ExportBody = z.infer<typeof exportSchema>
export type RangeBody = Pick<TimeSeriesBody, 'start_date' | 'end_date' | 'timezone' | 'filters' | 'filter_template'>

function parameterName(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('')
}

/** Turns the first zod issue into a bad_request reason that names the parameter. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const name = parameterName(issue.path) || 'request body'
  switch (issue.code) {
    case 'invalid_type':
      if (issue.message.endsWith('received undefined')) return `${name} is required`
      return `${name} must be ${issue.expected === 'int' ? 'an integer' : `of type ${issue.expected}`}`
    case 'invalid_value':
      return `${name} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`
    case 'too_big':
      return issue.origin === 'array' ? `${name} must have at most ${String(issue.maximum)} items` : `${name} must be at most ${String(issue.maximum)}`
    case 'too_small':
      return issue.origin === 'array' ? `${name} must have at least ${String(issue.minimum)} item(s)`
        : issue.origin === 'string' ? `${name} must not be empty` : `${name} must be at least ${String(issue.minimum)}`
    default:
      return `${name} ${issue.message}`
  }
}

export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const result = schema.safeParse(body)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const error: ReportError = badRequest(issue ? `Invalid parameter: ${describeIssue(issue)}` : 'Invalid request')
  throw error
}
