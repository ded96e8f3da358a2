import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { failure, startAt, success } from './helpers'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startAt()
})
afterAll(() => sandbox.close())

interface Item {
  name: string
  value: number
}
interface Audience {
  status: string
  total: { dates: string[]; data: Item[]; records_found: number; confidence_range?: number }
  rows: Array<{ name: string[]; data: Item[]; confidence_range?: number }>
}

const RANGE = { start_date: '2024-06-01', end_date: '2024-06-07' }
const QUARTER = { start_date: '2024-03-01', end_date: '2024-06-14' }
const AUDIENCE_ROWS_LIMIT_MIN = 10_000
const AUDIENCE_ROWS_LIMIT_MAX = 10_000_000
const users = (data: Item[]): number => data.find((item) => item.name === 'unique_users')?.value ?? -1

describe('audience', () => {
  it('counts unique users in total and per split_by row', async () => {
    const body = await success<Audience>(sandbox, 'audience', { ...RANGE, split_by: ['device_type'] })
    expect(body.total.dates).toEqual(['2024-06-01', '2024-06-02', '2024-06-03', '2024-06-04', '2024-06-05', '2024-06-06', '2024-06-07'])
    const total = users(body.total.data)
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThan(body.total.records_found)
    expect(body.total.confidence_range).toBeUndefined()
    expect(body.rows.map((row) => row.name[0]).sort()).toEqual(['ctv', 'desktop', 'mobile', 'tablet'])
    for (const row of body.rows) {
      expect(users(row.data)).toBeLessThanOrEqual(total)
      expect(row.confidence_range).toBeUndefined()
    }
    // Users are shared across devices, so the rows add up to more than the distinct total.
    expect(body.rows.reduce((sum, row) => sum + users(row.data), 0)).toBeGreaterThan(total)
  })

  it('restricts with filters and splits by several fields', async () => {
    const all = await success<Audience>(sandbox, 'audience', { ...RANGE, split_by: [] })
    const us = await success<Audience>(sandbox, 'audience', {
      ...RANGE,
      split_by: ['country', 'device_type'],
      filters: [{ name: 'country', value: ['US'], match: 'equals' }],
    })
    expect(us.total.records_found).toBeLessThan(all.total.records_found)
    expect(users(us.total.data)).toBeLessThan(users(all.total.data))
    expect(all.rows).toEqual([])
    expect(us.rows.every((row) => row.name.length === 2 && row.name[0] === 'US')).toBe(true)
  })

  it('processes only audience_rows_limit records and gives confidence_range when that is fewer than found', async () => {
    // About 60,000 records: enough to go below with the smallest allowed limit.
    const exact = await success<Audience>(sandbox, 'audience', { ...QUARTER, split_by: ['device_type'] })
    expect(exact.total.records_found).toBeGreaterThan(AUDIENCE_ROWS_LIMIT_MIN)
    expect(exact.total.confidence_range).toBeUndefined()
    const limited = await success<Audience>(sandbox, 'audience', { ...QUARTER, split_by: ['device_type'], audience_rows_limit: AUDIENCE_ROWS_LIMIT_MIN })
    expect(limited.total.records_found).toBe(exact.total.records_found)
    expect(limited.total.confidence_range).toBeGreaterThan(0)
    expect(limited.total.confidence_range).toBeLessThanOrEqual(100)
    for (const row of limited.rows) expect(row.confidence_range).toBeGreaterThan(limited.total.confidence_range ?? 0)
    // The estimate is scaled up from the sample, so it differs from the exact count.
    expect(users(limited.total.data)).not.toBe(users(exact.total.data))
    const enough = await success<Audience>(sandbox, 'audience', { ...QUARTER, split_by: [], audience_rows_limit: exact.total.records_found })
    expect(enough.total.confidence_range).toBeUndefined()
    expect(users(enough.total.data)).toBe(users(exact.total.data))
  })

  it('takes audience_rows_limit from 10,000 to 10,000,000 only', async () => {
    for (const limit of [AUDIENCE_ROWS_LIMIT_MIN, 1_000_000, AUDIENCE_ROWS_LIMIT_MAX]) {
      const body = await success<Audience>(sandbox, 'audience', { ...RANGE, split_by: [], audience_rows_limit: limit })
      expect(body.total.confidence_range, String(limit)).toBeUndefined()
    }
    for (const limit of [0, 500, AUDIENCE_ROWS_LIMIT_MIN - 1, AUDIENCE_ROWS_LIMIT_MAX + 1, 20_000.5]) {
      const reason = await failure(sandbox, 'audience', { ...RANGE, split_by: [], audience_rows_limit: limit })
      expect(reason, String(limit)).toContain('audience_rows_limit')
    }
    expect(await failure(sandbox, 'audience', { ...RANGE, split_by: [], audience_rows_limit: 9_999 })).toBe(
      'Invalid parameter: audience_rows_limit must be at least 10000',
    )
    expect(await failure(sandbox, 'audience', { ...RANGE, split_by: [], audience_rows_limit: 10_000_001 })).toBe(
      'Invalid parameter: audience_rows_limit must be at most 10000000',
    )
  })

  it('counts the audience source audience_key names, the first of info.audience_sources by default', async () => {
    const info = await success<{ audience_sources: Array<{ name: string }> }>(sandbox, 'info', {})
    expect(info.audience_sources.map((source) => source.name)).toEqual(['users', 'households'])
    const byDefault = await success<Audience>(sandbox, 'audience', { ...RANGE, split_by: ['device_type'] })
    const first = await success<Audience>(sandbox, 'audience', { ...RANGE, split_by: ['device_type'], audience_key: 'users' })
    expect(first).toEqual(byDefault)
    const households = await success<Audience>(sandbox, 'audience', { ...RANGE, split_by: ['device_type'], audience_key: 'households' })
    const count = (data: Item[]): number => data.find((item) => item.name === 'unique_households')?.value ?? -1
    expect(households.total.records_found).toBe(first.total.records_found)
    expect(households.total.data.map((item) => item.name)).toEqual(['unique_households'])
    // Several users share a household: fewer households than users, but some.
    expect(count(households.total.data)).toBeGreaterThan(0)
    expect(count(households.total.data)).toBeLessThan(users(first.total.data))
    expect(households.rows.map((row) => row.name[0]).sort()).toEqual(['ctv', 'desktop', 'mobile', 'tablet'])
    for (const row of households.rows) expect(count(row.data)).toBeLessThanOrEqual(count(households.total.data))
  })

  it('rejects an audience_key that names no audience source, naming the field', async () => {
    const reason = await failure(sandbox, 'audience', { ...RANGE, split_by: [], audience_key: 'devices' })
    expect(reason).toContain('audience_key')
    expect(reason).toContain("'devices'")
    expect(reason).toContain('users, households')
    expect(await failure(sandbox, 'audience', { ...RANGE, split_by: [], audience_key: 7 })).toContain('audience_key')
  })

  it('rejects bad parameters, naming them', async () => {
    expect(await failure(sandbox, 'audience', { ...RANGE })).toContain('split_by')
    expect(await failure(sandbox, 'audience', { ...RANGE, split_by: ['nope'] })).toContain('split_by[0]')
  })
})
