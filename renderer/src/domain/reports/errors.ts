import type { ErrorDetails } from '@contract'
import { PARAMETER_FIELDS, type BuilderField } from '../../../../common/fields'
/**
 * Which builder field an error belongs to. Main names it in `details.field` (a definition path
 * such as `dates.start`, or the platform's parameter such as `chart_lines[3]`); a malformed
 * request names it in `details.issues[].path`. Both are brought to the definition's own paths so
 * each field can show the sentence next to itself.
 */

export type { BuilderField }

/** The platform's request parameters (common's one map), and the resolver's own input names, as builder fields. */
const ALIASES: Record<string, BuilderField> = {
  ...PARAMETER_FIELDS,
  slicer: 'report',
  start: 'dates.start',
  end: 'dates.end',
  dates: 'dates.start',
  metric: 'metrics',
}

const FIELDS = new Set<string>(
  Object.values(ALIASES).concat([
    'categoryLimit',
    'metricConditions',
    'metricConditionLogic',
    'comparison',
    'audience.breakdown',
    'lines',
    'filterLogic',
    'sort',
  ]),
)

/** A path like `definition.filters.0.values`, `filters[2].value` or `start_date` as a builder field, or null. */
export function builderField(path: string): BuilderField | null {
  const parts = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((part) => part !== '' && !/^\d+$/.test(part))
  if (parts[0] === 'definition' || parts[0] === 'input') parts.shift()
  if (parts.length === 0) return null
  const two = parts.slice(0, 2).join('.')
  if (FIELDS.has(two)) return two as BuilderField
  const first = parts[0] as string
  if (FIELDS.has(first)) return first as BuilderField
  return ALIASES[first] ?? null
}

/** Main names the audience settings as one field; the platform's reason says which parameter it meant. */
function audienceField(details: ErrorDetails): BuilderField | null {
  const text = `${details.part ?? ''} ${details.reason ?? ''}`
  if (/audience_rows_limit|rowsLimit/.test(text)) return 'audience.rowsLimit'
  if (/audience_key|source/.test(text)) return 'audience.source'
  if (/split_by|breakdown/.test(text)) return 'audience.breakdown'
  return null
}

/**
 * The field an error names: `details.field` (with `details.part` saying which end of `dates`),
 * else the first issue with a known path.
 */
export function errorField(details: ErrorDetails | undefined): BuilderField | null {
  if (!details) return null
  if (details.field === 'dates') return details.part === 'end' ? 'dates.end' : 'dates.start'
  if (details.field === 'audience') return audienceField(details)
  if (details.field !== undefined) {
    const field = builderField(details.field)
    if (field) return field
  }
  for (const issue of details.issues ?? []) {
    const field = typeof issue === 'string' ? null : builderField(issue.path)
    if (field) return field
  }
  return null
}

export const FIELD_LABELS: Record<BuilderField, string> = {
  project: 'Project',
  report: 'Report',
  'dates.start': 'Start date',
  'dates.end': 'End date',
  timezone: 'Timezone',
  metrics: 'Metrics',
  granularity: 'Time axis',
  categoryLimit: 'Top categories',
  breakdown: 'Break down by',
  lines: 'Lines',
  filters: 'Filters',
  filterLogic: 'Filter logic',
  metricConditions: 'Metric conditions',
  metricConditionLogic: 'Condition logic',
  sort: 'Sorting',
  comparison: 'Compare to',
  'audience.source': 'Audience source',
  'audience.rowsLimit': 'Precision',
  'audience.breakdown': 'Audience breakdown',
}
