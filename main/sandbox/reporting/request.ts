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

/** A number, or text that holds one (the platform's own examples send `"value": "1"`). */
const NUMERIC_TEXT = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/
const NOT_NUMERIC = 'must be a number or a text holding one, such as "1"'
const numericValue = z.union([z.number(), z.string().regex(NUMERIC_TEXT, { error: NOT_NUMERIC })], { error: NOT_NUMERIC }).transform((value) => Number(value))

/**
 * `{"name", "match", "value"}` as the platform takes it; the older `operator` key is still
 * read, so requests saved before the change keep working here.
 */
export const dataFilterSchema = z
  .object({
    name: z.string().min(1),
    match: z.enum(DATA_FILTER_OPERATORS).optional(),
    operator: z.enum(DATA_FILTER_OPERATORS).optional(),
    value: numericValue,
  })
  .transform(({ name, match, operator, value }, context) => {
    const chosen = match ?? operator
    if (chosen === undefined) {
      context.addIssue({ code: 'custom', path: ['match'], message: `is required (one of ${DATA_FILTER_OPERATORS.join(' ')})` })
      return z.NEVER
    }
    if (operator !== undefined && chosen !== operator) {
      context.addIssue({ code: 'custom', path: ['match'], message: `'${chosen}' contradicts operator '${operator}'; send match only` })
      return z.NEVER
    }
    return { name, match: chosen, value }
  })

/** `{"name", "direction": "ASC"|"DESC", "mapping": 0|1}`; the direction is read in any case. */
export const orderTermSchema = z.object({
  name: z.string().min(1),
  direction: z
    .string()
    .toUpperCase()
    .pipe(z.enum(['ASC', 'DESC']))
    .optional(),
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

export const AUDIENCE_ROWS_LIMIT = { min: 10_000, max: 10_000_000, default: 1_000_000 } as const

export const audienceSchema = z.object({
  ...rangeFields,
  audience_key: z.string().optional(),
  audience_rows_limit: z.int().min(AUDIENCE_ROWS_LIMIT.min).max(AUDIENCE_ROWS_LIMIT.max).optional(),
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

export type ParsedFilter = z.infer<typeof filterSchema>
export type ParsedDataFilter = z.output<typeof dataFilterSchema>
export type ParsedOrderTerm = z.output<typeof orderTermSchema>
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
      return issue.origin === 'array'
        ? `${name} must have at least ${String(issue.minimum)} item(s)`
        : issue.origin === 'string'
          ? `${name} must not be empty`
          : `${name} must be at least ${String(issue.minimum)}`
    case 'invalid_union': {
      // A union fails as a whole; when the value had the right type for one branch, that
      // branch's own complaint names the field (order_by[1].direction, not just order_by).
      const branch = issue.errors.find((issues) => issues.length > 0 && !issues.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0))
      const inner = branch?.[0]
      return inner ? describeIssue({ ...inner, path: [...issue.path, ...inner.path] }) : `${name} ${issue.message}`
    }
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
