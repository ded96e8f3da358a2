import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AudienceView, ReportDefinition, ReportInfoView, TimeSeriesView } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers, type Handlers } from '../../../main/handlers/handlers'
import type { ReportingClient } from '../../../main/services/reporting/client'
import { readCsvHead } from '../../../main/services/reports/csv-head'
import { call, failure, sandboxDefinition, sandboxProfile } from '../../support/handler-calls'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { createTestServices } from '../../support/services'
import { recordWire } from '../clients/support/sandbox'

type TestServices = Awaited<ReturnType<typeof createTestServices>>

const report = { project_name: 'demo', slicer_name: 'supply' }

const definition = sandboxDefinition

/** One column of a direct answer, as numbers. */
function column(rows: Array<Record<string, unknown>>, line: string): Array<number | null> {
  return rows.map((row) => (typeof row[line] === 'number' ? (row[line] as number) : null))
}

describe('report service against the sandbox', () => {
  let sandbox: Sandbox
  let services: TestServices
  let handlers: Handlers
  let profileId: string
  let direct: ReportingClient

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
    services = await createTestServices()
    handlers = createHandlers(services, { nativeSaveDialog: false })
    profileId = await sandboxProfile(services, sandbox)
    direct = (await services.workspace.connection(profileId)).reporting
  })
  afterAll(async () => {
    await services.close()
    await sandbox.close()
  })
  afterEach(() => {
    sandbox.reset()
  })

  it('describes the report from info, with time keys, mappings and additive metrics', async () => {
    const info: ReportInfoView = await call(handlers, 'reports:info', { profileId, project: 'demo', report: 'supply' })
    expect(info.offlineReason).toBeNull()
    expect(info.keyFields.find((field) => field.name === 'granularity_day')?.isTime).toBe(true)
    expect(info.keyFields.find((field) => field.name === 'publisher')?.mapping).toBe('publisher_name')
    expect(info.dataFields.find((field) => field.name === 'impressions')?.additive).toBe(true)
    expect(info.dataFields.find((field) => field.name === 'ctr')?.additive).toBe(false)
    expect(await call(handlers, 'reports:known', { profileId })).toEqual([{ project: 'demo', report: 'supply', fetchedAt: info.fetchedAt }])
  })

  it('charts exactly what a direct time_series call for the same request gives', async () => {
    const filters: ReportDefinition['filters'] = [{ key: 'device_type', match: 'not equals', values: ['tv'], caseInsensitive: true, searchNames: false }]
    const made = definition({ breakdown: ['country'], lines: { mode: 'pick', values: ['FR', 'DE'], includeTotal: true }, filters })
    const result: TimeSeriesView = await call(handlers, 'reports:run', { profileId, definition: made })
    // The sandbox resolves the tokens itself here: the dates must agree as well as the numbers.
    const expected = await direct.timeSeries({
      ...report,
      start_date: '-14d',
      end_date: 'yesterday',
      timezone: 3,
      granularity: 'granularity_day',
      split_by: ['country'],
      chart_lines: ['FR', 'DE', '__total__'],
      data_field: 'impressions',
      filters: [{ name: 'device_type', match: 'not equals', value: ['tv'], case_insensitive: 1, search_mappings: 0 }],
    })
    expect(result.categories).toEqual(expected.rows.map((row) => row.__time__))
    expect(result.range).toMatchObject({ start: expected.rows[0]?.__time__, end: expected.rows.at(-1)?.__time__, timezone: 3, days: 14 })
    expect(result.series.map((series) => [series.line, series.label])).toEqual([
      ['FR', 'FR — France'],
      ['DE', 'DE — Germany'],
      ['__total__', 'Total'],
    ])
    for (const series of result.series) expect(series.values, series.line).toEqual(column(expected.rows, series.line))
    const total = result.series[2]
    expect(total?.stats.total).toBe(column(expected.rows, '__total__').reduce<number>((sum, value) => sum + (value ?? 0), 0))
    expect(result.reduced).toBe(false)
  })

  it('draws the top 10 publishers by revenue plus Total, ranked as the platform ranks them', async () => {
    const made = definition({ metrics: ['impressions'], breakdown: ['publisher'], lines: { mode: 'top', count: 10, by: 'revenue', includeTotal: true } })
    const result: TimeSeriesView = await call(handlers, 'reports:run', { profileId, definition: made })
    const ranking = await direct.timeSeries({
      ...report,
      start_date: result.range.start,
      end_date: result.range.end,
      timezone: 3,
      granularity: 'publisher',
      split_by: [],
      chart_lines: ['__total__'],
      data_field: 'revenue',
      order_by: { name: 'revenue', direction: 'DESC' },
      limit: 10,
    })
    const top = ranking.rows.map((row) => String(row.__time__))
    expect(top).toHaveLength(10)
    expect(result.series.map((series) => series.line)).toEqual([...top, '__total__'])
    expect(result.series[0]?.label).toBe(`${top[0]} — ${String(ranking.rows[0]?.__mapping__)}`)
    const chart = await direct.timeSeries({
      ...report,
      start_date: result.range.start,
      end_date: result.range.end,
      timezone: 3,
      granularity: 'granularity_day',
      split_by: ['publisher'],
      chart_lines: [...top, '__total__'],
      data_field: 'impressions',
    })
    for (const series of result.series) expect(series.values, series.line).toEqual(column(chart.rows, series.line))
  })

  it('ranks combinations of two keys from the first rows of an export', async () => {
    const made = definition({ breakdown: ['country', 'device_type'], lines: { mode: 'top', count: 5, by: null, includeTotal: false } })
    const result: TimeSeriesView = await call(handlers, 'reports:run', { profileId, definition: made })
    const download = await direct.export({
      ...report,
      start_date: result.range.start,
      end_date: result.range.end,
      timezone: 3,
      split_by: ['country', 'device_type'],
      data_fields: ['impressions'],
      order_by: [{ name: 'impressions', direction: 'DESC' }],
      include_mappings: 0,
      export_format: 'csv',
    })
    const [, ...rows] = (await readCsvHead(download.body, 6)).records
    expect(result.series.map((series) => series.line)).toEqual(rows.map((row) => `${row[0]}\u0002${row[1]}`))
    expect(result.series[0]?.label).toMatch(/^[A-Z]{2} — .+ \/ .+/)
  })

  it('fetches the comparison with shifted absolute dates and aligns it by position', async () => {
    const made = definition({ dates: { start: '-7d', end: '-1d' }, comparison: 'previous_period', metrics: ['impressions', 'ctr'] })
    const result: TimeSeriesView = await call(handlers, 'reports:run', { profileId, definition: made })
    expect(result.comparisonRange).toMatchObject({ days: 7, timezone: 3 })
    const earlier = await direct.timeSeries({
      ...report,
      start_date: result.comparisonRange?.start,
      end_date: result.comparisonRange?.end,
      timezone: 3,
      granularity: 'granularity_day',
      split_by: [],
      chart_lines: ['__total__'],
      data_field: 'impressions',
    })
    expect(result.comparisonCategories).toEqual(earlier.rows.map((row) => row.__time__))
    expect(result.comparisonCategories).toHaveLength(result.categories.length)
    const byKey = Object.fromEntries(result.series.map((series) => [series.key, series]))
    expect(byKey['impressions|__total__|compare']?.values).toEqual(column(earlier.rows, '__total__'))
    const now = byKey['impressions|__total__']?.stats.total ?? 0
    const before = byKey['impressions|__total__|compare']?.stats.total ?? 0
    expect(byKey['impressions|__total__']?.stats.change).toBeCloseTo(((now - before) / before) * 100, 6)
    // A percent metric is never totalled.
    expect(byKey['ctr|__total__']?.stats.total).toBeNull()
    expect(byKey['ctr|__total__']?.stats.average).not.toBeNull()
  })

  it('counts an audience with its confidence range when the platform samples', async () => {
    const made = definition({ dates: { start: '-30d', end: 'yesterday' }, audience: { source: 'users', rowsLimit: 10_000, breakdown: ['device_type'] } })
    const result: AudienceView = await call(handlers, 'reports:audience', { profileId, definition: made })
    const expected = await direct.audience({
      ...report,
      start_date: '-30d',
      end_date: 'yesterday',
      timezone: 3,
      split_by: ['device_type'],
      audience_rows_limit: 10_000,
    })
    expect(result.totals).toEqual([{ name: 'unique_users', value: expected.total.data?.[0]?.value }])
    expect(result.confidenceRange).toBe(expected.total.confidence_range)
    expect(result.confidenceRange).toBeGreaterThan(0)
    expect(result.recordsFound).toBe(expected.total.records_found)
    expect(result).toMatchObject({ source: 'users', rowsLimit: 10_000, daysInRange: 30, daysWithData: expected.total.dates?.length })
    expect(result.rows.map((row) => row.label)).toEqual(expected.rows.map((row) => row.name.join(' / ')))
    expect(result.rows.every((row) => typeof row.confidenceRange === 'number')).toBe(true)
  })

  it('finds values of a key by text in the value or its name, biggest first, with names', async () => {
    const found = await call(handlers, 'reports:values', { profileId, definition: definition({}), key: 'country', text: 'GERM', limit: 5 })
    expect(found).toEqual([{ value: 'DE', name: 'Germany' }])
    const top = await call(handlers, 'reports:values', { profileId, definition: definition({}), key: 'publisher', text: '', limit: 3 })
    expect(top).toHaveLength(3)
    expect(top.every((entry) => entry.name !== null)).toBe(true)
  })

  it('refuses more than 50 lines before anything is sent', async () => {
    const wire = recordWire()
    try {
      const values = Array.from({ length: 50 }, (_, index) => String(index + 1))
      const error = await failure(handlers, 'reports:run', {
        profileId,
        definition: definition({ breakdown: ['publisher'], lines: { mode: 'pick', values, includeTotal: true } }),
      })
      expect(error).toMatchObject({ code: 'validation', details: { field: 'lines' } })
      expect(wire.count('POST', '/API/v2/time_series') + wire.count('POST', '/API/v2/export')).toBe(0)
    } finally {
      wire.stop()
    }
  })

  it('cancels a slow query by its request id', async () => {
    // Info first, so the only request held up is the chart's own.
    await call(handlers, 'reports:info', { profileId, project: 'demo', report: 'supply' })
    sandbox.setFaults({ latency_ms: 60_000 })
    const wire = recordWire()
    try {
      const running = dispatch(handlers, 'reports:run', { profileId, definition: definition({}), requestId: 'slow-chart' })
      await vi.waitFor(() => expect(wire.count('POST', '/API/v2/time_series')).toBe(1), { timeout: 10_000, interval: 10 })
      await call(handlers, 'requests:cancel', { requestId: 'slow-chart' })
      const outcome = await running
      expect(outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    } finally {
      wire.stop()
    }
  })
})

describe('report info offline', () => {
  it('answers the copy on disk with the reason when the platform cannot be reached, also after a restart', async () => {
    const sandbox = await startSandbox({ port: 0 })
    const keychain = createMemoryKeychain()
    const services = await createTestServices({ keychain })
    try {
      const handlers = createHandlers(services, { nativeSaveDialog: false })
      const profileId = await sandboxProfile(services, sandbox)
      const online = await call(handlers, 'reports:info', { profileId, project: 'demo', report: 'supply' })
      expect(online.offlineReason).toBeNull()
      await sandbox.close()

      const offline = await call(handlers, 'reports:info', { profileId, project: 'demo', report: 'supply', refresh: true })
      expect(offline.offlineReason).toMatch(/Nothing answers at/)
      expect(offline.fetchedAt).toBe(online.fetchedAt)
      expect(offline.dataFields).toEqual(online.dataFields)

      // A restarted app has only the disk.
      const restarted = await createTestServices({ userDataDir: services.userDataDir, keychain })
      try {
        const again = createHandlers(restarted, { nativeSaveDialog: false })
        const fromDisk = await call(again, 'reports:info', { profileId, project: 'demo', report: 'supply' })
        expect(fromDisk.offlineReason).not.toBeNull()
        expect(fromDisk.keyFields).toEqual(online.keyFields)
        expect(await call(again, 'reports:known', { profileId })).toEqual([{ project: 'demo', report: 'supply', fetchedAt: online.fetchedAt }])
        // Nothing on disk for another report: the error itself.
        expect(await failure(again, 'reports:info', { profileId, project: 'demo', report: 'other' })).toMatchObject({ code: 'network' })
      } finally {
        await restarted.close()
      }
    } finally {
      await services.close()
      await sandbox.close().catch(() => undefined)
    }
  })
})

describe('a refusal from the platform', () => {
  it('is shown at the builder field its reason names', async () => {
    const sandbox = await startSandbox({ port: 0 })
    const keychain = createMemoryKeychain()
    const services = await createTestServices({ keychain })
    try {
      const profileId = await sandboxProfile(services, sandbox)
      await call(createHandlers(services, { nativeSaveDialog: false }), 'reports:info', { profileId, project: 'demo', report: 'supply' })
      // A saved description that still lists a custom metric deleted since: main plans with it, the platform refuses it.
      const file = path.join(services.userDataDir, 'reports', 'info', encodeURIComponent(profileId), 'demo', 'supply.json')
      const saved = JSON.parse(await readFile(file, 'utf8')) as { info: { data_fields: Array<Record<string, unknown>> } }
      saved.info.data_fields.push({ name: 'deleted_custom_metric', display_type: 'int', formula: null, access: 'shared' })
      await writeFile(file, JSON.stringify(saved))
      const restarted = await createTestServices({ userDataDir: services.userDataDir, keychain })
      try {
        const error = await failure(createHandlers(restarted, { nativeSaveDialog: false }), 'reports:run', {
          profileId,
          definition: definition({ metrics: ['deleted_custom_metric'] }),
        })
        expect(error).toMatchObject({
          code: 'validation',
          details: { apiStatus: 'bad_request', field: 'metrics', fields: { metrics: [expect.stringContaining('data_field')] } },
        })
        expect(error.message).toContain('deleted_custom_metric')
      } finally {
        await restarted.close()
      }
    } finally {
      await services.close()
      await sandbox.close()
    }
  })
})

// Not a test of the platform: the sandbox's own dates are checked in its suite. Here the
// builder's resolved dates must be what a request with the tokens would cover.
describe('resolving dates through the bridge', () => {
  it('answers absolute dates for tokens, with the field named on a bad one', async () => {
    const services = await createTestServices()
    try {
      const handlers = createHandlers(services, { nativeSaveDialog: false })
      const range = await call(handlers, 'reports:resolveDates', {
        start: '2024-02-01',
        end: '-0m_last',
        timezone: { mode: 'fixed', offset: 0 },
        reportTimezone: null,
      })
      expect(range.start).toBe('2024-02-01')
      expect(range.timezone).toBe(0)
      const error = await failure(handlers, 'reports:resolveDates', { start: 'soon', end: 'today', timezone: { mode: 'report' }, reportTimezone: 2 })
      expect(error).toMatchObject({ code: 'validation', details: { field: 'dates', part: 'start' } })
    } finally {
      await services.close()
    }
  })
})
