import { AUDIENCE_SOURCES } from './audience'
import type { ReportContext } from './context'
import { formatDay } from './dates'
import { visibleDataFields } from './fields'
import { KEY_FIELDS } from './keys'
import { REPORT_TIMEZONE } from './scope'

export function info(context: ReportContext): Record<string, unknown> {
  const facts = context.facts
  return {
    status: 'success',
    timezone: REPORT_TIMEZONE,
    supports_timezone: 1,
    first_date: formatDay(facts.firstDay),
    last_date: formatDay(facts.firstDay + facts.dayCount - 1),
    key_fields: KEY_FIELDS,
    // Private custom fields are listed only for their creator.
    data_fields: visibleDataFields(context.user).map((field) => field.info),
    audience_sources: AUDIENCE_SOURCES.map(({ name, description, annotation }) => ({ name, description, annotation })),
    annotation: 'Supply report of the AdOps Desk demo project: synthetic, deterministic data.',
  }
}
