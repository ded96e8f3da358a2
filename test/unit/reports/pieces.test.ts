import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../../main/services/errors'
import { percentOf } from '../../../main/services/reports/audience'
import { readCsvHead } from '../../../main/services/reports/csv-head'
import { withBuilderField } from '../../../main/services/reports/errors'
import { lineLabel } from '../../../main/services/reports/labels'
import { changeAgainst, seriesStats } from '../../../main/services/reports/stats'
import { infoView } from './fixtures'

describe('reading the head of a csv stream', () => {
  const chunks = (...parts: string[]) => Readable.from(parts.map((part) => Buffer.from(part)))

  it('reads quoted fields, doubled quotes, line breaks in quotes, CRLF and LF, across chunk boundaries', async () => {
    const { records } = await readCsvHead(chunks('\uFEFFa,b\r', '\n"x, ""y""",', '"two\nlines"\n', 'plain,"la', 'st"\r\n'), 10)
    expect(records).toEqual([
      ['a', 'b'],
      ['x, "y"', 'two\nlines'],
      ['plain', 'last'],
    ])
  })

  it('stops after the records it needs and closes the stream', async () => {
    let produced = 0
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.from('key,value\n')
      for (;;) {
        produced++
        yield Buffer.from(`k${produced},${produced}\n`)
      }
    }
    const stream = Readable.from(endless())
    const { records } = await readCsvHead(stream, 4)
    expect(records).toEqual([
      ['key', 'value'],
      ['k1', '1'],
      ['k2', '2'],
      ['k3', '3'],
    ])
    expect(stream.destroyed).toBe(true)
    expect(produced).toBeLessThan(10)
  })

  it('splits multi-byte characters across chunks correctly', async () => {
    const bytes = Buffer.from('name\nZürich\n')
    const cut = bytes.indexOf(0xc3) + 1
    expect((await readCsvHead(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]), 5)).records).toEqual([['name'], ['Zürich']])
  })
})

describe('bad_request reasons shown at the builder field they name', () => {
  // The client's shape of a reporting refusal (the sandbox test proves the real chain end to end).
  const details = { httpStatus: 400, method: 'POST', url: 'http://reports.example/API/v2/time_series' }
  const rejected = (reason: string) =>
    new AppError('validation', `The report request was rejected: ${reason}. Correct it and try again.`, { apiStatus: 'bad_request', ...details, reason })

  it.each([
    ['Invalid parameter start_date: tomorrow is not a date', 'time_series', 'dates', 'start'],
    ['Invalid parameter end_date: bad', 'time_series', 'dates', 'end'],
    ['Invalid parameter chart_lines[3]: must join 2 values', 'time_series', 'lines', undefined],
    ['Invalid parameter limit: must be at most 10000', 'time_series', 'categoryLimit', undefined],
    ['Invalid parameter filters[0].name: unknown key field', 'time_series', 'filters', undefined],
    ['Invalid parameter data_filters[1].name: unknown data field', 'time_series', 'metricConditions', undefined],
    ['Invalid parameter filter_template: filter 2 is not used', 'export', 'filterLogic', undefined],
    ['Invalid parameter data_filter_template: unexpected', 'time_series', 'metricConditionLogic', undefined],
    ['Invalid parameter timezone: must be at most 12', 'time_series', 'timezone', undefined],
    ['Invalid parameter granularity: unknown key field', 'time_series', 'granularity', undefined],
    ['Invalid parameter order_by[0].name: neither', 'time_series', 'sort', undefined],
    ['audience_rows_limit must be at least 10000', 'audience', 'audience', undefined],
    ['Unknown audience_key "x"', 'audience', 'audience', undefined],
    ['Invalid parameter split_by[0]: unknown', 'audience', 'audience', undefined],
    ['Invalid parameter split_by[0]: unknown', 'time_series', 'breakdown', undefined],
  ] as const)('%s → %s', (reason, operation, field, part) => {
    const mapped = withBuilderField(rejected(reason), operation)
    expect(mapped).toBeInstanceOf(AppError)
    const error = mapped as AppError
    expect(error.code).toBe('validation')
    expect(error.message).toContain(reason)
    expect(error.details).toMatchObject({ apiStatus: 'bad_request', reason, field, fields: { [field]: [reason] } })
    expect(error.details?.part).toBe(part)
  })

  it('leaves other errors and unnamed reasons alone', () => {
    const plain = rejected('Something odd')
    expect(withBuilderField(plain, 'time_series')).toBe(plain)
    const timeout = new AppError('timeout', 'The report took too long on the platform.', {
      apiStatus: 'timeout',
      ...details,
      reason: 'start_date too far back',
    })
    expect(withBuilderField(timeout, 'time_series')).toBe(timeout)
  })
})

describe('info as the builder uses it', () => {
  it('reads both spellings of display type and show percents, and marks what is additive', () => {
    const byName = Object.fromEntries(infoView.dataFields.map((field) => [field.name, field]))
    expect(byName.impressions).toMatchObject({ displayType: 'int', showPercents: 'always', additive: true, precision: 0 })
    expect(byName.revenue).toMatchObject({ displayType: 'float', showPercents: 'whenSorted', additive: true, pattern: '$#,##0.00', precision: 2 })
    expect(byName.ctr).toMatchObject({
      displayType: 'percent',
      additive: false,
      formula: 'clicks / impressions * 100',
      formulaDescription: 'Clicks per hundred',
    })
    expect(byName.ecpm).toMatchObject({ additive: false })
    expect(byName.margin).toMatchObject({ access: 'shared', optional: true, showPercents: 'never' })
  })

  it('marks time keys, mappings, groups and segmented keys', () => {
    const byName = Object.fromEntries(infoView.keyFields.map((field) => [field.name, field]))
    expect(byName.granularity_day).toMatchObject({ isTime: true, mapping: null })
    expect(byName.publisher).toMatchObject({ isTime: false, type: 'int', mapping: 'publisher_name', group: 'supply', annotation: 'id' })
    expect(byName.page_url).toMatchObject({ segmented: true, group: null, description: 'Page URL' })
    expect(infoView).toMatchObject({ timezone: 2, supportsTimezone: true, firstDate: '2023-01-01', lastDate: '2024-06-30', offlineReason: null })
    expect(infoView.audienceSources.map((source) => source.name)).toEqual(['users', 'devices'])
  })
})

describe('labels and statistics', () => {
  it('labels lines "value — name" per key, joined by " / "', () => {
    const mappings = { publisher: { '17': 'Daily News', '18': null }, country: { FR: 'France', XX: 'XX' } }
    expect(lineLabel('__total__', ['publisher'], mappings)).toBe('Total')
    expect(lineLabel('17\u0002FR', ['publisher', 'country'], mappings)).toBe('17 — Daily News / FR — France')
    expect(lineLabel('18\u0002XX', ['publisher', 'country'], mappings)).toBe('18 / XX')
    expect(lineLabel('19', ['publisher'], {})).toBe('19')
  })

  it('totals only additive metrics, skips gaps, and compares totals or averages', () => {
    const now = seriesStats([10, null, 30, 20], true)
    expect(now).toEqual({ total: 60, average: 20, min: 10, max: 30, change: null, points: 3 })
    const ratio = seriesStats([1.5, 2.5], false)
    expect(ratio.total).toBeNull()
    expect(ratio.average).toBe(2)
    expect(seriesStats([null, null], true)).toEqual({ total: null, average: null, min: null, max: null, change: null, points: 0 })
    expect(changeAgainst(now, seriesStats([20, 20], true), true)).toBe(50)
    expect(changeAgainst(ratio, seriesStats([4], false), false)).toBe(-50)
    expect(changeAgainst(now, seriesStats([0], true), true)).toBeNull()
  })

  it('reads a confidence range as a percent', () => {
    expect([2.5, '2.5', '±2.5%', ' 3 % ', null, undefined, 'wide', Number.NaN].map(percentOf)).toEqual([2.5, 2.5, 2.5, 3, null, null, null, null])
  })
})
