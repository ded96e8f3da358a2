import { MAX_CHART_LINES, reportDefinitionSchema, type LineSelection, type ReportDefinition } from '@contract'
import { AppError } from '../../errors'
import { defaultDefinitionParts, MAX_CHART_LINE_LENGTH, MAX_FILTERS } from './limits'
import { LINE_SEPARATOR } from '../../../../common/lines'
import { TOTAL_LINE, type Reading } from './reading'

/*
 * The last stage: a Reading laid over the builder's state (`base`). What a request cannot say
 * (chart type, comparison, the other tab's settings) comes from the base; what it leaves out on
 * purpose (no filters, no sort) is empty, so the builder becomes the pasted request. The result is
 * checked with the contract's schema, so a paste never yields a definition the builder would refuse.
 */

/** How the platform joins the values of one chart line across breakdown keys. */

/** The builder's definition from a paste, and one sentence per thing that could not be read. */
export interface PasteResult {
  definition: ReportDefinition
  unread: string[]
}

function linesOf(chartLines: string[] | undefined, breakdown: string[], unread: string[]): LineSelection {
  if (chartLines === undefined || breakdown.length === 0) return defaultDefinitionParts.lines
  const includeTotal = chartLines.includes(TOTAL_LINE)
  const values: string[] = []
  for (const line of chartLines) {
    if (line === TOTAL_LINE) continue
    const parts = line.split(LINE_SEPARATOR).length
    if (parts !== breakdown.length) {
      unread.push(
        `The chart line "${line.split(LINE_SEPARATOR).join(' / ')}" has ${parts} value${parts === 1 ? '' : 's'} but the breakdown has ${breakdown.length} key${breakdown.length === 1 ? '' : 's'}; it was left out.`,
      )
      continue
    }
    if (line.length > MAX_CHART_LINE_LENGTH) {
      unread.push(`A chart line longer than ${MAX_CHART_LINE_LENGTH.toLocaleString('en-US')} characters was left out.`)
      continue
    }
    values.push(line)
  }
  if (values.length > MAX_CHART_LINES) {
    unread.push(`The request has ${values.length} chart lines; a chart takes ${MAX_CHART_LINES}, so the first ${MAX_CHART_LINES} were kept.`)
    values.length = MAX_CHART_LINES
  }
  return { mode: 'pick', values, includeTotal }
}

export function assemble(reading: Reading, base: Partial<ReportDefinition>): PasteResult {
  const unread = [...reading.unread]
  const isAudience = reading.kind === 'audience'
  const required = (value: string | undefined, fallback: string | undefined, field: string, builderField: string): string => {
    if (value !== undefined) return value
    if (fallback !== undefined && fallback !== '') {
      unread.push(`The paste has no ${field}; the builder's ${builderField} was kept.`)
      return fallback
    }
    throw new AppError(
      'validation',
      `The pasted request names no ${field}, and the builder has none to keep. Pick the ${builderField} first, or paste a request with ${field}.`,
      { fields: { text: [`No ${field}`] } },
    )
  }

  const project = required(reading.project, base.project, 'project (project_name)', 'project')
  const report = required(reading.report, base.report, 'report (slicer_name)', 'report')
  const start = required(reading.start, base.dates?.start, 'start date (start_date)', 'start date')
  const end = required(reading.end, base.dates?.end, 'end date (end_date)', 'end date')
  const metrics = reading.metrics ?? (base.metrics !== undefined && base.metrics.length > 0 ? base.metrics : undefined)
  if (metrics === undefined) {
    throw new AppError(
      'validation',
      `The pasted ${isAudience ? 'audience request names no metric for the chart' : 'request names no metric (data_field)'}, and the builder has none to keep. Pick a metric first.`,
      { fields: { text: ['No metric'] } },
    )
  }
  if (reading.metrics === undefined && !isAudience) unread.push("The paste names no metric; the builder's metrics were kept.")

  const baseAudience = base.audience ?? defaultDefinitionParts.audience
  const chartPart = isAudience
    ? {
        granularity: base.granularity ?? defaultDefinitionParts.granularity,
        categoryLimit: base.categoryLimit ?? defaultDefinitionParts.categoryLimit,
        breakdown: base.breakdown ?? [],
        lines: base.lines ?? defaultDefinitionParts.lines,
        metricConditions: base.metricConditions ?? [],
        metricConditionLogic: base.metricConditionLogic ?? '',
        sort: base.sort ?? [],
      }
    : {
        granularity: reading.granularity ?? defaultDefinitionParts.granularity,
        categoryLimit: reading.categoryLimit ?? defaultDefinitionParts.categoryLimit,
        breakdown: reading.breakdown ?? [],
        lines: linesOf(reading.chartLines, reading.breakdown ?? [], unread),
        metricConditions: reading.metricConditions,
        metricConditionLogic: reading.metricConditionLogic ?? '',
        sort: reading.sort,
      }
  if (reading.filters.length > MAX_FILTERS) {
    unread.push(`The request has ${reading.filters.length} filters; the builder takes ${MAX_FILTERS}, so the first ${MAX_FILTERS} were kept.`)
    reading.filters.length = MAX_FILTERS
  }

  const candidate: ReportDefinition = {
    project,
    report,
    dates: { start, end },
    timezone: reading.timezone ?? base.timezone ?? defaultDefinitionParts.timezone,
    metrics,
    ...chartPart,
    filters: reading.filters,
    filterLogic: reading.filterLogic ?? '',
    comparison: base.comparison ?? defaultDefinitionParts.comparison,
    chart: base.chart ?? defaultDefinitionParts.chart,
    audience: isAudience
      ? {
          source: reading.audienceSource === undefined ? baseAudience.source : reading.audienceSource,
          rowsLimit: reading.audienceRowsLimit ?? baseAudience.rowsLimit,
          breakdown: reading.breakdown ?? [],
        }
      : baseAudience,
  }
  const checked = reportDefinitionSchema.safeParse(candidate)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw new AppError(
      'validation',
      `The pasted request could not become a report: ${issue?.path.join('.') ?? 'definition'}: ${issue?.message ?? 'invalid'}.`,
      { fields: { text: [issue?.message ?? 'invalid'] } },
    )
  }
  return { definition: checked.data, unread }
}
