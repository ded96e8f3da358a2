import type { ReportDefinition, ReportInfoView } from '@contract'
import { normaliseInfo } from '../../../main/services/reports/info'
import type { ReportInfo } from '../../../main/services/reporting/schemas'

const time = ['hour', 'day', 'week', 'month', 'quarter', 'year'].map((granularity) => ({ name: `granularity_${granularity}`, type: 'text', mapping: null }))

/** A platform `info` answer in the shape the service sends (both spellings appear on purpose). */
export const rawInfo: ReportInfo = {
  status: 'success',
  timezone: 2,
  supports_timezone: 1,
  first_date: '2023-01-01',
  last_date: '2024-06-30',
  key_fields: [
    ...time,
    { name: 'publisher', description: 'Publisher', type: 'int', mapping: 'publisher_name', is_segmented: 0, link: 'supply', annotation: 'id' },
    { name: 'country', description: 'Country', type: 'text', mapping: 'country_name', is_segmented: 0 },
    { name: 'page_url', description: 'Page URL', type: 'text', mapping: null, is_segmented: 1 },
  ],
  data_fields: [
    { name: 'impressions', description: 'Impressions', display_type: 'int', display_precision: 0, show_percents: 2, formula: null },
    { name: 'revenue', description: 'Revenue', type: 'float', show_percent: 1, display_pattern: '$#,##0.00', formula: null },
    { name: 'ctr', description: 'CTR', display_type: 'percent', formula: 'clicks / impressions * 100', formula_description: 'Clicks per hundred' },
    { name: 'ecpm', description: 'eCPM', display_type: 'float', formula: 'revenue / impressions * 1000' },
    { name: 'margin', description: 'Margin', display_type: 'float', access: 'shared', is_optional: 1 },
  ],
  audience_sources: [
    { name: 'users', description: 'Users' },
    { name: 'devices', description: 'Devices' },
  ],
  annotation: 'Test report',
}

export const infoView: ReportInfoView = normaliseInfo(rawInfo, 'demo', 'supply', '2024-06-15T10:00:00.000Z', null)

export function definition(overrides: Partial<ReportDefinition> = {}): ReportDefinition {
  return {
    project: 'demo',
    report: 'supply',
    dates: { start: '-7d', end: 'yesterday' },
    timezone: { mode: 'report' },
    metrics: ['impressions'],
    granularity: 'auto',
    categoryLimit: 30,
    breakdown: [],
    lines: { mode: 'top', count: 10, by: null, includeTotal: true },
    filters: [],
    filterLogic: '',
    metricConditions: [],
    metricConditionLogic: '',
    sort: [],
    comparison: 'none',
    chart: { type: 'line', hidden: [], showMarkers: true },
    audience: { source: null, rowsLimit: 1_000_000, breakdown: [] },
    ...overrides,
  }
}

/** 2024-06-15 10:30 UTC, on a computer at UTC+1. */
export const clock = { now: () => new Date('2024-06-15T10:30:00Z'), osOffsetMinutes: () => 60 }
