import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { ReportDefinition } from '@contract'
import type { ReportingClient } from '../../../main/services/reporting/client'
import type { ReportRequest, TimeSeriesResult } from '../../../main/services/reporting/schemas'
import { AppError } from '../../../main/services/errors'
import { runTimeSeries } from '../../../main/services/reports/runner'
import { clock, definition, infoView } from './fixtures'

type Answer = (body: ReportRequest) => TimeSeriesResult

/** A reporting client that answers from a function and records every body it was sent. */
function fakeReporting(answer: Answer, csv = ''): { client: ReportingClient; sent: Array<{ operation: string; body: ReportRequest }> } {
  const sent: Array<{ operation: string; body: ReportRequest }> = []
  const client: ReportingClient = {
    info: () => Promise.reject(new Error('not used')),
    audience: () => Promise.reject(new Error('not used')),
    timeSeries: async (body) => {
      sent.push({ operation: 'time_series', body })
      return answer(body)
    },
    export: async (body) => {
      sent.push({ operation: 'export', body })
      return { body: Readable.from([Buffer.from(csv)]), contentType: 'text/csv', fileName: 'x.csv' }
    },
  }
  return { client, sent }
}

const days = (start: string, count: number): string[] => {
  const first = Date.parse(`${start}T00:00:00Z`)
  return Array.from({ length: count }, (_, index) => new Date(first + index * 86_400_000).toISOString().slice(0, 10))
}

/** Rows for each day of the request's range: `value(line, index, metric)` per chart line. */
function daily(value: (line: string, index: number, metric: string) => number | null, extra: (index: number) => Record<string, unknown> = () => ({})): Answer {
  return (body) => {
    const start = String(body.start_date)
    const count = Math.round((Date.parse(`${String(body.end_date)}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1
    const lines = body.chart_lines as string[]
    return {
      status: 'success',
      mappings: { country: { FR: 'France', DE: 'Germany' } },
      rows: days(start, count).map((time, index) => ({
        __time__: time,
        ...Object.fromEntries(lines.map((line) => [line, value(line, index, String(body.data_field))])),
        ...extra(index),
      })),
    }
  }
}

const run = (client: ReportingClient, made: ReportDefinition, pointBudget?: number) =>
  runTimeSeries({ reporting: client, info: infoView, clock, monotonic: () => 0 }, made, {
    signal: new AbortController().signal,
    ...(pointBudget === undefined ? {} : { pointBudget }),
  })

describe('a chart run', () => {
  it('ranks the lines first, then asks for them with Total, and labels them with their names', async () => {
    const { client, sent } = fakeReporting((body) =>
      body.granularity === 'country'
        ? {
            status: 'success',
            rows: [
              { __time__: 'FR', __mapping__: 'France', __total__: 9 },
              { __time__: 'DE', __mapping__: 'Germany', __total__: 5 },
            ],
          }
        : daily((line, index) => (line === '__total__' ? 100 + index : 10))(body),
    )
    const result = await run(client, definition({ breakdown: ['country'], lines: { mode: 'top', count: 3, by: 'revenue', includeTotal: true } }))
    expect(sent.map((entry) => entry.body.granularity)).toEqual(['country', 'granularity_day'])
    expect(sent[0]?.body).toMatchObject({ data_field: 'revenue', limit: 3, order_by: [{ name: 'revenue', direction: 'DESC', mapping: 0 }] })
    expect(sent[1]?.body.chart_lines).toEqual(['FR', 'DE', '__total__'])
    expect(result.series.map((series) => [series.label, series.role])).toEqual([
      ['FR — France', 'line'],
      ['DE — Germany', 'line'],
      ['Total', 'total'],
    ])
    expect(result.categories).toEqual(days('2024-06-08', 7))
    expect(result.series[2]?.stats).toMatchObject({ total: 721, average: 103, min: 100, max: 106, points: 7 })
    expect(result.notes).toContain('Only 2 values of country have data in this range.')
    expect(result.range).toMatchObject({ start: '2024-06-08', end: '2024-06-14', timezone: 2, days: 7 })
  })

  it('ranks several keys from the first rows of an export, joined by U+0002', async () => {
    const csv = 'publisher,country,impressions\r\n7,FR,900\r\n7,DE,800\r\n9,FR,700\r\n'
    const { client, sent } = fakeReporting(
      daily(() => 1),
      csv,
    )
    const result = await run(client, definition({ breakdown: ['publisher', 'country'], lines: { mode: 'top', count: 2, by: null, includeTotal: false } }))
    expect(sent[0]).toMatchObject({ operation: 'export', body: { split_by: ['publisher', 'country'], data_fields: ['impressions'], export_format: 'csv' } })
    expect(sent[1]?.body.chart_lines).toEqual(['7\u0002FR', '7\u0002DE'])
    expect(result.series.map((series) => series.label)).toEqual(['7 / FR — France', '7 / DE — Germany'])
  })

  it('runs one call per metric and per period, aligns the comparison by position and reports the change', async () => {
    const { client, sent } = fakeReporting(
      daily(
        (_, _index, metric) => (metric === 'ctr' ? 2 : 10),
        () => ({}),
      ),
    )
    const result = await run(client, definition({ metrics: ['impressions', 'ctr'], comparison: 'previous_period' }))
    expect(sent.map((entry) => [entry.body.data_field, entry.body.start_date, entry.body.end_date])).toEqual([
      ['impressions', '2024-06-08', '2024-06-14'],
      ['impressions', '2024-06-01', '2024-06-07'],
      ['ctr', '2024-06-08', '2024-06-14'],
      ['ctr', '2024-06-01', '2024-06-07'],
    ])
    expect(result.comparisonRange).toMatchObject({ start: '2024-06-01', end: '2024-06-07', days: 7 })
    expect(result.comparisonCategories).toEqual(days('2024-06-01', 7))
    expect(result.series.map((series) => series.key)).toEqual([
      'impressions|__total__',
      'impressions|__total__|compare',
      'ctr|__total__',
      'ctr|__total__|compare',
    ])
    const [impressions, previous, ctr] = result.series
    expect(previous?.role).toBe('comparison')
    expect(previous?.label).toBe('Total (previous period)')
    expect(impressions?.stats).toMatchObject({ total: 70, change: 0 })
    // A percent metric has no total; its change compares averages.
    expect(ctr?.stats).toMatchObject({ total: null, average: 2, change: 0 })
  })

  it('shifts a year back with 29 February clamped for "previous year"', async () => {
    const { client, sent } = fakeReporting(daily(() => 1))
    await run(client, definition({ dates: { start: '2024-02-29', end: '2024-03-01' }, comparison: 'previous_year' }))
    expect(sent[1]?.body).toMatchObject({ start_date: '2023-02-28', end_date: '2023-03-01' })
  })

  it('keeps markers once each, reads missing values as gaps, and notes filter logic', async () => {
    const marker = {
      marker_id: 101,
      date: '2024-06-09',
      message: 'Floors lowered',
      first_name: 'Dana',
      last_name: 'Morgan',
      author: 'demo',
      created: '2024-06-09',
      edited: '2024-06-10',
    }
    const { client } = fakeReporting(
      daily(
        (_, index) => (index === 3 ? null : 5),
        (index) => (index === 1 ? { __markers__: [marker, marker] } : {}),
      ),
    )
    const filters: ReportDefinition['filters'] = [
      { key: 'country', match: 'equals', values: ['FR'], caseInsensitive: false, searchNames: false },
      { key: 'country', match: 'equals', values: ['DE'], caseInsensitive: false, searchNames: false },
    ]
    const result = await run(client, definition({ metrics: ['impressions', 'revenue'], filters, filterLogic: '1 or 2' }))
    expect(result.markers).toEqual([
      { id: 101, date: '2024-06-09', message: 'Floors lowered', author: 'Dana Morgan', created: '2024-06-09', edited: '2024-06-10' },
    ])
    expect(result.series[0]?.values[3]).toBeNull()
    expect(result.series[0]?.stats.points).toBe(6)
    expect(result.notes.join(' ')).toMatch(/filter logic for exports only/)
  })

  it('reduces long series to the budget after computing the stats on every point', async () => {
    const { client } = fakeReporting(daily((_, index) => (index === 777 ? 1_000 : 1)))
    const result = await run(client, definition({ dates: { start: '2020-01-01', end: '2024-01-01' }, granularity: 'day' }), 100)
    expect(result.sourcePoints).toBe(1_462)
    expect(result.reduced).toBe(true)
    expect(result.categories.length).toBeLessThanOrEqual(100)
    expect(result.series[0]?.values).toHaveLength(result.categories.length)
    expect(result.series[0]?.values).toContain(1_000)
    expect(result.series[0]?.stats).toMatchObject({ total: 1_461 + 1_000, max: 1_000, points: 1_462 })
  })

  it('names the categories of a key-field axis from the rows’ __mapping__, and a time axis not at all', async () => {
    const names: Array<[string, string | null]> = [
      ['17', 'Daily Planet'],
      ['42', 'Gazette'],
      ['7', null],
      ['9', '9'],
    ]
    const { client, sent } = fakeReporting((body) => ({
      status: 'success',
      rows: names.map(([id, name], index) => ({
        __time__: id,
        __mapping__: name,
        ...Object.fromEntries((body.chart_lines as string[]).map((line) => [line, 10 - index])),
      })),
    }))
    const result = await run(client, definition({ granularity: 'publisher', categoryLimit: 4, metrics: ['impressions', 'revenue'] }))
    expect(sent[0]?.body).toMatchObject({ granularity: 'publisher', limit: 4 })
    // Ids stay the categories (the axis order, the table, the TSV); the names ride beside them.
    expect(result.categories).toEqual(['17', '42', '7', '9'])
    // No name, or a name that only repeats the id, is left out.
    expect(result.categoryLabels).toEqual({ '17': 'Daily Planet', '42': 'Gazette' })

    const daily = fakeReporting((body) => ({
      status: 'success',
      rows: days(String(body.start_date), 3).map((time) => ({ __time__: time, __mapping__: `Day ${time}`, __total__: 1 })),
    }))
    const timed = await run(daily.client, definition({ dates: { start: '2024-06-01', end: '2024-06-03' }, granularity: 'day' }))
    expect(timed.categories).toHaveLength(3)
    expect(timed).not.toHaveProperty('categoryLabels')
  })

  it('refuses before sending anything', async () => {
    const { client, sent } = fakeReporting(daily(() => 1))
    const fifty = Array.from({ length: 50 }, (_, index) => `v${index}`)
    await expect(run(client, definition({ breakdown: ['country'], lines: { mode: 'pick', values: fifty, includeTotal: true } }))).rejects.toBeInstanceOf(
      AppError,
    )
    await expect(run(client, definition({ dates: { start: 'today', end: '-1d' } }))).rejects.toMatchObject({ details: { field: 'dates' } })
    expect(sent).toEqual([])
  })

  it('shows a platform refusal at the field it names', async () => {
    const client: ReportingClient = {
      ...fakeReporting(daily(() => 1)).client,
      timeSeries: () =>
        Promise.reject(
          new AppError('validation', 'The report request was rejected: Invalid parameter timezone: no.', {
            apiStatus: 'bad_request',
            reason: 'Invalid parameter timezone: no',
          }),
        ),
    }
    await expect(run(client, definition())).rejects.toMatchObject({ code: 'validation', details: { field: 'timezone' } })
  })
})
