import { badRequest } from './errors'
import { filterRecords } from './filters'
import type { ReportContext } from './context'
import type { HourRange, KeyAccessor } from './keys'
import type { RangeBody } from './request'
import { localToday, parseDateExpression } from './dates'
import { parseTemplate, TemplateError } from './templates'
import type { TemplateNode } from './templates'

/** The records a request looks at: its date range in its time zone, after its filters. */
export interface Scope {
  range: HourRange
  startDay: number
  endDay: number
  records: Int32Array
}

/** Report time zone: data is stored in UTC. */
export const REPORT_TIMEZONE = 0

/** First record at or after a UTC hour. */
function firstRecordAt(facts: ReportContext['facts'], hour: number): number {
  const offset = Math.min(Math.max(hour - facts.firstHour, 0), facts.hourStart.length - 1)
  return facts.hourStart[offset] as number
}

export function resolveRange(
  context: ReportContext,
  body: Pick<RangeBody, 'start_date' | 'end_date' | 'timezone'>,
): { range: HourRange; startDay: number; endDay: number } {
  const timezone = body.timezone ?? REPORT_TIMEZONE
  // "Current date" is the date in the request's time zone (docs/architecture.md).
  const today = localToday(context.now(), timezone)
  const start = parseDateExpression(body.start_date, today)
  if (typeof start !== 'number') throw badRequest(`Invalid parameter start_date: ${start.error}`)
  const end = parseDateExpression(body.end_date, today)
  if (typeof end !== 'number') throw badRequest(`Invalid parameter end_date: ${end.error}`)
  if (start > end) throw badRequest(`Invalid parameter start_date: '${body.start_date}' is after end_date '${body.end_date}'`)
  return { range: { startHour: start * 24 - timezone, endHour: (end + 1) * 24 - timezone, timezone }, startDay: start, endDay: end }
}

export function accessorOrFail(context: ReportContext, name: string, range: HourRange, parameter: string): KeyAccessor {
  const accessor = context.keys.accessor(name, range)
  if (!accessor) throw badRequest(`Invalid parameter ${parameter}: unknown key field '${name}'`)
  return accessor
}

const EXCERPT_CHARACTERS = 80

function excerpt(text: string): string {
  return text.length <= EXCERPT_CHARACTERS ? text : `${text.slice(0, EXCERPT_CHARACTERS)}…`
}

/** Parses a template, or null when none is given (an empty string counts as none). */
export function templateOrNull(text: string | undefined, count: number, parameter: string): TemplateNode | null {
  if (text === undefined || text.trim() === '') return null
  try {
    return parseTemplate(text, count)
  } catch (error) {
    // The reason quotes the template, but never a huge one whole.
    if (error instanceof TemplateError) throw badRequest(`Invalid parameter ${parameter}: ${error.message} in '${excerpt(text)}'`)
    throw error
  }
}

export function resolveScope(context: ReportContext, body: RangeBody): Scope {
  const { range, startDay, endDay } = resolveRange(context, body)
  const filters = (body.filters ?? []).map((filter, index) => ({
    accessor: accessorOrFail(context, filter.name, range, `filters[${index}].name`),
    filter,
  }))
  const template = templateOrNull(body.filter_template, filters.length, 'filter_template')
  const low = firstRecordAt(context.facts, range.startHour)
  const high = Math.max(low, firstRecordAt(context.facts, range.endHour))
  const all = new Int32Array(high - low)
  for (let index = 0; index < all.length; index++) all[index] = low + index
  return { range, startDay, endDay, records: filterRecords(all, filters, template) }
}
