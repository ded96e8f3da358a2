import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { MAX_TEMPLATE_CHARACTERS, MAX_TEMPLATE_DEPTH, MAX_TEMPLATE_LEAVES } from '../../../main/sandbox/reporting/templates'
import { failure, startAt, success } from './helpers'

/** Hostile templates get a bad_request that says why, instead of holding the server's one thread. */
let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startAt()
})
afterAll(() => sandbox.close())

const RANGE = { start_date: '2024-06-01', end_date: '2024-06-07' }
const SERIES = { granularity: 'day', split_by: [], chart_lines: ['__total__'], data_field: 'impressions', ...RANGE }
const FILTERS = [
  { name: 'country', value: ['US'], match: 'equals' },
  { name: 'device_type', value: ['mobile'], match: 'equals' },
]
const DATA_FILTERS = [
  { name: 'impressions', match: '>', value: '0' },
  { name: 'clicks', match: '>=', value: '0' },
]

/** 56 KB of `1 and 2 and 1 and …`: valid in every other way. */
const HUGE = `${'1 and 2 and '.repeat(4_700)}1`
const DEEP = `${'('.repeat(28_000)}1 and 2${')'.repeat(28_000)}`
const parenthesised = (levels: number): string => `${'('.repeat(levels)}1 and 2${')'.repeat(levels)}`

describe('filter_template and data_filter_template caps', () => {
  it('refuses a 56 KB filter_template with a sentence that does not echo it', async () => {
    expect(HUGE.length).toBeGreaterThan(56_000)
    for (const operation of ['time_series', 'export', 'audience'] as const) {
      const body =
        operation === 'time_series' ? SERIES : operation === 'export' ? { ...RANGE, export_format: 'csv', split_by: ['country'] } : { ...RANGE, split_by: [] }
      const reason = await failure(sandbox, operation, { ...body, filters: FILTERS, filter_template: HUGE })
      expect(reason, operation).toMatch(
        new RegExp(
          `^Invalid parameter filter_template: the expression is ${HUGE.length} characters long; at most ${MAX_TEMPLATE_CHARACTERS} are allowed in '1 and 2`,
        ),
      )
      expect(reason.length, operation).toBeLessThan(300)
    }
  })

  it('refuses a 56 KB data_filter_template, and 56 KB of parentheses', async () => {
    expect(await failure(sandbox, 'time_series', { ...SERIES, granularity: 'country', data_filters: DATA_FILTERS, data_filter_template: HUGE })).toMatch(
      /^Invalid parameter data_filter_template: .* characters long/,
    )
    expect(
      await failure(sandbox, 'export', {
        ...RANGE,
        export_format: 'csv',
        split_by: ['country'],
        data_fields: ['impressions'],
        data_filters: DATA_FILTERS,
        data_filter_template: DEEP,
      }),
    ).toMatch(/^Invalid parameter data_filter_template: .* characters long/)
    expect(await failure(sandbox, 'time_series', { ...SERIES, filters: FILTERS, filter_template: DEEP })).toMatch(
      /^Invalid parameter filter_template: .* characters long/,
    )
  })

  it('refuses nesting deeper than the cap, and serves the cap itself', async () => {
    const deepest = await success(sandbox, 'time_series', { ...SERIES, filters: FILTERS, filter_template: parenthesised(MAX_TEMPLATE_DEPTH) })
    const plain = await success(sandbox, 'time_series', { ...SERIES, filters: FILTERS })
    expect(deepest).toEqual(plain)
    expect(await failure(sandbox, 'time_series', { ...SERIES, filters: FILTERS, filter_template: parenthesised(MAX_TEMPLATE_DEPTH + 1) })).toContain(
      `filter_template: the expression nests deeper than ${MAX_TEMPLATE_DEPTH} levels`,
    )
    expect(
      await failure(sandbox, 'time_series', { ...SERIES, filters: FILTERS, filter_template: `${'not not '.repeat(MAX_TEMPLATE_DEPTH)}1 and 2` }),
    ).toContain('nests deeper')
    // As deep as the character cap allows: a bad_request, not a stack overflow (internal_error).
    const levels = Math.floor((MAX_TEMPLATE_CHARACTERS - 7) / 2)
    expect(
      await failure(sandbox, 'time_series', { ...SERIES, granularity: 'country', data_filters: DATA_FILTERS, data_filter_template: parenthesised(levels) }),
    ).toContain('data_filter_template: the expression nests deeper')
  })

  it('refuses more leaves than the cap', async () => {
    const leaves = (count: number): string => Array.from({ length: count }, (_, index) => String((index % 2) + 1)).join(' or ')
    await success(sandbox, 'time_series', { ...SERIES, filters: FILTERS, filter_template: leaves(MAX_TEMPLATE_LEAVES) })
    expect(await failure(sandbox, 'time_series', { ...SERIES, filters: FILTERS, filter_template: leaves(MAX_TEMPLATE_LEAVES + 1) })).toContain(
      `names more than ${MAX_TEMPLATE_LEAVES} filter positions`,
    )
  })

  it('keeps serving after refusing', async () => {
    await failure(sandbox, 'time_series', { ...SERIES, filters: FILTERS, filter_template: HUGE })
    const body = await success<{ rows: unknown[] }>(sandbox, 'time_series', SERIES)
    expect(body.rows).toHaveLength(7)
  })
})
