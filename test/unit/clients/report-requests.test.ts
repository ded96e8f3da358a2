import { describe, expect, it } from 'vitest'
import { AppError } from '../../../main/services/errors'
import { checkRequest } from '../../../main/services/reporting/wire-schemas'
import type { WireAudienceRequest, WireExportRequest, WireTimeSeriesRequest } from '../../../main/services/reporting/wire-schemas'

const target = { project_name: 'demo', slicer_name: 'supply' }
const series: WireTimeSeriesRequest = {
  ...target,
  granularity: 'day',
  split_by: [],
  chart_lines: ['__total__'],
  data_field: 'impressions',
  start_date: '-7d',
  end_date: 'yesterday',
}

/** The validation error checkRequest throws, with its field map. */
function rejected(operation: 'time_series' | 'audience' | 'export', request: Record<string, unknown>): { message: string; fields: Record<string, string[]> } {
  try {
    checkRequest(operation, request)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    expect(error.code).toBe('validation')
    return { message: error.message, fields: (error.details?.['fields'] ?? {}) as Record<string, string[]> }
  }
  throw new Error('expected the request to be refused')
}

describe('checkRequest: the platform shapes pass', () => {
  it('keeps a request in the platform shape as it is, unknown fields included', () => {
    const request: WireTimeSeriesRequest = {
      ...series,
      filters: [{ name: 'country', value: ['U'], match: 'not beginswith', case_insensitive: 1, search_mappings: 1 }],
      data_filters: [
        { name: 'impressions', match: '>=', value: '1' },
        { name: 'clicks', match: '!=', value: 0 },
      ],
      data_filter_template: '1 and 2',
      order_by: [{ name: 'impressions', direction: 'DESC', mapping: 0 }],
      need_others: 1,
    }
    expect(checkRequest('time_series', request)).toEqual(request)
  })

  it('takes all ten match spellings', () => {
    for (const match of [
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
    ]) {
      expect(() => checkRequest('export', { ...target, filters: [{ name: 'country', value: ['U'], match }] }), match).not.toThrow()
    }
  })

  it('sends a lower-case direction in upper case, as the platform spells it', () => {
    expect(checkRequest('export', { ...target, order_by: { name: 'country', direction: 'desc', mapping: 1 } })['order_by']).toEqual({
      name: 'country',
      direction: 'DESC',
      mapping: 1,
    })
    expect(checkRequest('time_series', { ...series, order_by: [{ name: 'country', direction: 'Asc' }] })['order_by']).toEqual([
      { name: 'country', direction: 'ASC' },
    ])
  })

  it('takes audience_key and audience_rows_limit from 10,000 to 10,000,000', () => {
    const audience: WireAudienceRequest = {
      ...target,
      split_by: [],
      start_date: '-7d',
      end_date: 'yesterday',
      audience_key: 'households',
      audience_rows_limit: 10_000,
    }
    expect(checkRequest('audience', audience)).toEqual(audience)
    expect(() => checkRequest('audience', { ...audience, audience_rows_limit: 10_000_000 })).not.toThrow()
  })

  it('leaves required fields to the platform, which names them in its reason', () => {
    expect(checkRequest('time_series', { ...target })).toEqual(target)
    const exportRequest: WireExportRequest = { ...target, split_by: 'country', export_format: 'csv', start_date: 'today', end_date: 'today' }
    expect(checkRequest('export', exportRequest)).toEqual(exportRequest)
  })
})

describe('checkRequest: older and wrong shapes are refused before sending', () => {
  it('a data filter with operator instead of match', () => {
    const { message, fields } = rejected('time_series', { ...series, data_filters: [{ name: 'impressions', operator: '>', value: 1 }] })
    expect(Object.keys(fields).sort()).toEqual(['data_filters[0].match', 'data_filters[0].operator'])
    expect(fields['data_filters[0].operator']).toEqual(['is not read by the platform: name the comparison "match"'])
    expect(message).toMatch(/^This report request is not in the platform's shape \(data_filters\[0\]\.match: .+\)\. Correct it and try again\.$/)
  })

  it('a data filter value that is no number, or a match outside the six', () => {
    expect(rejected('export', { ...target, data_filters: [{ name: 'impressions', match: '>', value: 'many' }] }).fields).toEqual({
      'data_filters[0].value': ['must be a number or a text holding one, such as "1"'],
    })
    expect(Object.keys(rejected('export', { ...target, data_filters: [{ name: 'impressions', match: '=>', value: '1' }] }).fields)).toEqual([
      'data_filters[0].match',
    ])
  })

  it('an order_by direction other than ASC/DESC, inside an array too', () => {
    expect(Object.keys(rejected('export', { ...target, order_by: { name: 'country', direction: 'up' } }).fields)).toEqual(['order_by.direction'])
    expect(Object.keys(rejected('time_series', { ...series, order_by: [{ name: 'country' }, { name: 'clicks', direction: 'down' }] }).fields)).toEqual([
      'order_by[1].direction',
    ])
    expect(Object.keys(rejected('time_series', { ...series, order_by: 'country' }).fields)).toEqual(['order_by'])
  })

  it('a filter match outside the ten spellings', () => {
    for (const match of ['not begins with', 'begins_with', 'like']) {
      expect(Object.keys(rejected('audience', { ...target, filters: [{ name: 'country', value: ['U'], match }] }).fields), match).toEqual(['filters[0].match'])
    }
  })

  it('audience_rows_limit outside 10,000-10,000,000, and an empty audience_key', () => {
    for (const limit of [500, 9_999, 10_000_001, 20_000.5]) {
      expect(Object.keys(rejected('audience', { ...target, audience_rows_limit: limit }).fields), String(limit)).toEqual(['audience_rows_limit'])
    }
    expect(Object.keys(rejected('audience', { ...target, audience_key: '' }).fields)).toEqual(['audience_key'])
  })
})
