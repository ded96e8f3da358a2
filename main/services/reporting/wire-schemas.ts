import { z } from 'zod'
import { AppError } from '../errors'

/**
 * The wire shapes of the reporting requests, as the real platform takes them (docs/architecture.md,
 * "Filling the specification's gaps"); every name here starts with `Wire`/`wire`. The types say
 * everything a request holds; before sending, the client checks only the fields a request has
 * (`checkRequest`): which ones are required is the platform's to say, in its bad_request reason,
 * while a field in an older shape (data_filters with `operator`) would be misread, so it never
 * leaves. The report builder's own bodies (reports/scope.ts, reports/platform-body.ts) are
 * checked against these.
 */

const binary = z.literal([0, 1])

/** The spec's six modes and the vendor's spellings; `not beginswith`/`not endswith` exist only in that spelling. */
export const FILTER_MATCH_MODES = [
  'equals',
  'not equals',
  'contains',
  'not contains',
  'begins with',
  'ends with',
  'beginswith',
  'endswith',
  'not beginswith',
  'not endswith',
] as const
export type FilterMatchMode = (typeof FILTER_MATCH_MODES)[number]

export const DATA_FILTER_MATCHES = ['>', '>=', '<', '<=', '=', '!='] as const
export type DataFilterMatch = (typeof DATA_FILTER_MATCHES)[number]

export const AUDIENCE_ROWS_LIMIT = { min: 10_000, max: 10_000_000, default: 1_000_000 } as const

export const wireFilterSchema = z.looseObject({
  name: z.string().min(1),
  value: z.array(z.string()).min(1),
  match: z.enum(FILTER_MATCH_MODES, { error: `must be one of ${FILTER_MATCH_MODES.join(', ')}` }),
  case_insensitive: binary.optional(),
  search_mappings: binary.optional(),
})
export type WireFilter = z.input<typeof wireFilterSchema>

const NUMERIC_TEXT = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/
const NOT_NUMERIC = 'must be a number or a text holding one, such as "1"'

/** `{"name": "impressions", "match": ">=", "value": "1"}`: the value is sent as given (the platform's examples use text). */
export const wireDataFilterSchema = z.looseObject({
  name: z.string().min(1),
  match: z.enum(DATA_FILTER_MATCHES, { error: `must be one of ${DATA_FILTER_MATCHES.join(' ')}` }),
  value: z.union([z.string().regex(NUMERIC_TEXT, { error: NOT_NUMERIC }), z.number()], { error: NOT_NUMERIC }),
  /** The older shape's name for match; the platform ignores it, so a filter with it would silently do nothing. */
  operator: z.never({ error: 'is not read by the platform: name the comparison "match"' }).optional(),
})
export type WireDataFilter = z.input<typeof wireDataFilterSchema>

/** `{name, direction: "ASC"|"DESC", mapping: 0|1}`; a lower-case direction is sent in upper case. */
export const wireOrderTermSchema = z.looseObject({
  name: z.string().min(1),
  direction: z
    .string()
    .toUpperCase()
    .pipe(z.enum(['ASC', 'DESC'], { error: 'must be ASC or DESC' }))
    .optional(),
  mapping: binary.optional(),
})
export type WireOrderTerm = z.input<typeof wireOrderTermSchema>

const wireOrderBySchema = z.union([wireOrderTermSchema, z.array(wireOrderTermSchema)])

const targetFields = { project_name: z.string().min(1), slicer_name: z.string().min(1) }

const rangeFields = {
  start_date: z.string(),
  end_date: z.string(),
  timezone: z.int().min(-12).max(12).optional(),
  filters: z.array(wireFilterSchema).optional(),
  filter_template: z.string().optional(),
}

const tableFields = {
  data_filters: z.array(wireDataFilterSchema).optional(),
  data_filter_template: z.string().optional(),
  order_by: wireOrderBySchema.optional(),
  data_field_options: z.array(z.record(z.string(), z.unknown())).optional(),
}

export const wireTimeSeriesRequestSchema = z.looseObject({
  ...targetFields,
  ...rangeFields,
  ...tableFields,
  granularity: z.string(),
  limit: z.int().min(1).max(10_000).optional(),
  split_by: z.array(z.string()),
  chart_lines: z.array(z.string()).min(1).max(50),
  data_field: z.string(),
})
export type WireTimeSeriesRequest = z.input<typeof wireTimeSeriesRequestSchema>

export const wireAudienceRequestSchema = z.looseObject({
  ...targetFields,
  ...rangeFields,
  /** One of `info.audience_sources`; the platform counts the first without it. */
  audience_key: z.string().min(1).optional(),
  audience_rows_limit: z.int().min(AUDIENCE_ROWS_LIMIT.min).max(AUDIENCE_ROWS_LIMIT.max).optional(),
  split_by: z.array(z.string()),
})
export type WireAudienceRequest = z.input<typeof wireAudienceRequestSchema>

export const wireExportRequestSchema = z.looseObject({
  ...targetFields,
  ...rangeFields,
  ...tableFields,
  split_by: z.union([z.string(), z.array(z.string()).min(1)]),
  include_mappings: binary.optional(),
  include_total: binary.optional(),
  export_format: z.string(),
  data_fields: z.array(z.string()).optional(),
})
export type WireExportRequest = z.input<typeof wireExportRequestSchema>

/** What each operation's fields are checked against: present fields only. */
const PRESENT_FIELDS = {
  time_series: wireTimeSeriesRequestSchema.partial(),
  audience: wireAudienceRequestSchema.partial(),
  export: wireExportRequestSchema.partial(),
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('')
}

/**
 * A failed union (order_by: one term or an array) only says "invalid input"; when the value
 * had the right type for one branch, that branch's issues name the field that is wrong.
 */
function specificIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue]
  const branch = issue.errors.find((issues) => issues.length > 0 && !issues.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0))
  return branch ? branch.flatMap((inner) => specificIssues({ ...inner, path: [...issue.path, ...inner.path] })) : [issue]
}

/**
 * The request as it will be sent (a lower-case direction in upper case), or a `validation`
 * AppError naming each field that is not in the platform's shape.
 */
export function checkRequest(operation: keyof typeof PRESENT_FIELDS, request: Record<string, unknown>): Record<string, unknown> {
  const parsed = PRESENT_FIELDS[operation].safeParse(request)
  if (parsed.success) return parsed.data
  const fields: Record<string, string[]> = {}
  for (const issue of parsed.error.issues.flatMap(specificIssues).slice(0, 5)) {
    const name = fieldName(issue.path) || 'request'
    ;(fields[name] ??= []).push(issue.message)
  }
  const list = Object.entries(fields)
    .map(([name, messages]) => `${name}: ${messages.join('; ')}`)
    .join('; ')
  throw new AppError('validation', `This report request is not in the platform's shape (${list}). Correct it and try again.`, { fields })
}
