import { describe, expect, it } from 'vitest'
import { AppError } from '../../../main/services/errors'
import { ESTIMATE_LIMIT, estimateExport } from '../../../main/services/exports/estimate'
import { planExport } from '../../../main/services/exports/export-plan'
import type { ReportingClient } from '../../../main/services/reporting/client'
import type { ReportRequest } from '../../../main/services/reporting/schemas'
import { clock, definition, infoView } from '../reports/fixtures'

/**
 * The estimate asks the platform with the report builder's ranking call (reports/platform-body.ts),
 * so a filter or condition the builder sends is sent here the same way.
 */
function platform(count: number | Error) {
  const asked: ReportRequest[] = []
  const reporting = {
    async timeSeries(request: ReportRequest) {
      asked.push(request)
      if (count instanceof Error) throw count
      return { rows: Array.from({ length: count }, (_, index) => ({ __time__: `v${index}` })) }
    },
  } as unknown as ReportingClient
  return { asked, reportingOf: async () => reporting }
}

const filtered = definition({
  dates: { start: '2024-06-01', end: '2024-06-07' },
  filters: [
    { key: 'publisher', match: 'equals', values: ['7'], caseInsensitive: false, searchNames: false },
    { key: 'country', match: 'not equals', values: ['FR'], caseInsensitive: true, searchNames: true },
  ],
  filterLogic: '1 or 2',
  metricConditions: [
    { metric: 'impressions', match: '>=', value: '10' },
    { metric: 'revenue', match: '>', value: '1.50' },
  ],
  metricConditionLogic: '1 and 2',
})

describe('the export estimate', () => {
  it('sends the ranking call of the first key by the first data field, with the filters and conditions', async () => {
    const planned = planExport(filtered, infoView, { format: 'csv', keys: ['country'], dataFields: ['revenue', 'impressions'] }, clock)
    const { asked, reportingOf } = platform(3)
    const estimate = await estimateExport(planned, reportingOf, new AbortController().signal)
    expect(asked).toEqual([
      {
        project_name: 'demo',
        slicer_name: 'supply',
        start_date: '2024-06-01',
        end_date: '2024-06-07',
        timezone: 2,
        filters: [
          { name: 'publisher', match: 'equals', value: ['7'], case_insensitive: 0, search_mappings: 0 },
          { name: 'country', match: 'not equals', value: ['FR'], case_insensitive: 1, search_mappings: 1 },
        ],
        filter_template: '1 or 2',
        granularity: 'country',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'revenue',
        data_filters: [
          { name: 'impressions', match: '>=', value: '10' },
          { name: 'revenue', match: '>', value: '1.5' },
        ],
        data_filter_template: '1 and 2',
        order_by: [{ name: 'revenue', direction: 'DESC', mapping: 0 }],
        limit: ESTIMATE_LIMIT,
      },
    ])
    expect(estimate).toMatchObject({ rows: { count: 3, atLeast: false }, note: '3 rows (one per value of country).', keys: ['country'], othersRow: true })
  })

  it('is a lower bound for several keys or at the limit, and a note when the platform cannot be asked', async () => {
    const several = planExport(filtered, infoView, { format: 'xlsx', keys: ['country', 'publisher'] }, clock)
    const many = await estimateExport(several, platform(ESTIMATE_LIMIT).reportingOf, new AbortController().signal)
    expect(many.rows).toEqual({ count: ESTIMATE_LIMIT, atLeast: true })
    expect(many.note).toBe('At least 10,000 rows: country alone has that many values or more, and its combinations with the other keys can be many more.')

    const one = planExport(filtered, infoView, { format: 'csv', keys: ['page_url'] }, clock)
    const capped = await estimateExport(one, platform(ESTIMATE_LIMIT).reportingOf, new AbortController().signal)
    expect(capped.note).toBe('At least 10,000 rows: page_url has that many values or more.')

    const down = await estimateExport(one, platform(new AppError('server', 'The reporting service is unavailable.')).reportingOf, new AbortController().signal)
    expect(down).toMatchObject({ rows: null, note: 'No estimate: The reporting service is unavailable.' })
  })
})
