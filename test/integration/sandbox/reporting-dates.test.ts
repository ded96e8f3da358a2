import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { failure, startAt, totalSeries } from './helpers'

// The clock says 2024-06-15T10:30Z; data runs to 2024-06-14.
let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startAt()
})
afterAll(() => sandbox.close())

async function days(start: string, end: string, timezone?: number): Promise<string[]> {
  const body = await totalSeries(sandbox, { start_date: start, end_date: end, ...(timezone === undefined ? {} : { timezone }) })
  return body.rows.map((row) => row.__time__)
}

describe('date grammar', () => {
  const cases: Array<[string, string]> = [
    ['2024-06-01', '2024-06-01'],
    ['today', '2024-06-15'],
    ['yesterday', '2024-06-14'],
    ['-7d', '2024-06-08'],
    ['-7days', '2024-06-08'],
    ['-0d', '2024-06-15'],
    ['-2m', '2024-04-15'],
    ['-2months', '2024-04-15'],
    ['-1m_first', '2024-05-01'],
    ['-1months_first', '2024-05-01'],
    ['-1m_last', '2024-05-31'],
    ['-1month_last', '2024-05-31'],
    ['-1months_last', '2024-05-31'],
    ['-0m_first', '2024-06-01'],
    ['-4m_last', '2024-02-29'],
    // -Nd_m_first: the first day of the month holding today - N days; N may be positive.
    ['-15d_m_first', '2024-05-01'],
    ['-14d_m_first', '2024-06-01'],
    ['0d_m_first', '2024-06-01'],
    ['-0d_m_first', '2024-06-01'],
    ['15d_m_first', '2024-06-01'],
    ['16d_m_first', '2024-07-01'],
    ['-106d_m_first', '2024-03-01'],
    // 107 days back is the leap day 2024-02-29.
    ['-107d_m_first', '2024-02-01'],
  ]
  for (const [expression, date] of cases) {
    it(`reads ${expression} as ${date}`, async () => {
      const result = await days(expression, expression)
      expect(result).toEqual([date])
    })
  }

  it('covers every day of a range, data or not', async () => {
    const result = await totalSeries(sandbox, { start_date: '-3d', end_date: 'today' })
    expect(result.rows.map((row) => row.__time__)).toEqual(['2024-06-12', '2024-06-13', '2024-06-14', '2024-06-15'])
    expect(result.rows.map((row) => Number(row['__total__']) > 0)).toEqual([true, true, true, false])
  })

  it('evaluates the current date in the request time zone', async () => {
    // 10:30 UTC is 23:30 the day before at UTC-11, and 22:30 the same day at UTC+12.
    expect(await days('today', 'today', -11)).toEqual(['2024-06-14'])
    expect(await days('today', 'today', 12)).toEqual(['2024-06-15'])
    expect(await days('yesterday', 'yesterday', -11)).toEqual(['2024-06-13'])
  })

  it('evaluates -Nd_m_first from the current date in the request time zone', async () => {
    // Today is 2024-06-15 at UTC and 2024-06-14 at UTC-11: 14 days back crosses into May only there.
    expect(await days('-14d_m_first', '-14d_m_first', 0)).toEqual(['2024-06-01'])
    expect(await days('-14d_m_first', '-14d_m_first', -11)).toEqual(['2024-05-01'])
    expect(await days('16d_m_first', '16d_m_first', 0)).toEqual(['2024-07-01'])
    expect(await days('16d_m_first', '16d_m_first', -11)).toEqual(['2024-06-01'])
    // "Month of yesterday" as a range.
    const month = await days('-1d_m_first', 'yesterday')
    expect(month[0]).toBe('2024-06-01')
    expect(month).toHaveLength(14)
  })

  it('rejects dates outside the grammar, naming the parameter', async () => {
    for (const bad of ['2024-02-30', '2024-13-01', 'tomorrow', '-3w', '-1d_first', '06/01/2024', '', '-1m_m_first', '+1d_m_first', '-1d_m_last']) {
      const reason = await failure(sandbox, 'time_series', {
        granularity: 'day',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        start_date: bad,
        end_date: 'yesterday',
      })
      expect(reason, bad).toContain('start_date')
    }
    const reason = await failure(sandbox, 'time_series', {
      granularity: 'day',
      split_by: [],
      chart_lines: ['__total__'],
      data_field: 'impressions',
      start_date: 'yesterday',
      end_date: '-2d',
    })
    expect(reason).toContain('after end_date')
  })
})

describe('time zone', () => {
  it('moves hour buckets: local midnight at UTC+3 is 21:00 UTC the day before', async () => {
    const local = await totalSeries(sandbox, { granularity: 'hour', start_date: '2024-06-01', end_date: '2024-06-01', timezone: 3 })
    const utc = await totalSeries(sandbox, { granularity: 'hour', start_date: '2024-05-31', end_date: '2024-06-01', timezone: 0 })
    expect(local.rows).toHaveLength(24)
    expect(local.rows[0]?.__time__).toBe('2024-06-01 00:00')
    const at = (time: string): unknown => utc.rows.find((row) => row.__time__ === time)?.['__total__']
    expect(local.rows[0]?.['__total__']).toBe(at('2024-05-31 21:00'))
    expect(local.rows[23]?.['__total__']).toBe(at('2024-06-01 20:00'))
    expect(Number(at('2024-05-31 21:00'))).toBeGreaterThan(0)
  })

  it('shifts day buckets: the UTC+12 day holds other hours than the UTC day', async () => {
    const utc = await totalSeries(sandbox, { start_date: '2024-06-01', end_date: '2024-06-01' })
    const east = await totalSeries(sandbox, { start_date: '2024-06-01', end_date: '2024-06-01', timezone: 12 })
    expect(east.rows[0]?.['__total__']).not.toBe(utc.rows[0]?.['__total__'])
  })

  it('accepts -12..+12 and rejects anything else', async () => {
    for (const timezone of [-12, 0, 12]) expect((await days('yesterday', 'yesterday', timezone)).length).toBe(1)
    for (const timezone of [-13, 13, 1.5, '3']) {
      const reason = await failure(sandbox, 'time_series', {
        granularity: 'day',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        start_date: '-1d',
        end_date: '-1d',
        timezone,
      })
      expect(reason, String(timezone)).toContain('timezone')
    }
  })
})
