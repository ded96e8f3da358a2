import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { alertRuleSchema, backtestResultSchema, timeSeriesResultSchema, type ReportDefinition } from '@contract'
import { createFiredStore, type KeptAlert } from '../../../main/services/alerts/fired-store'
import { createRuleStore } from '../../../main/services/alerts/rules-store'
import { createAlertService, type AlertDataSource } from '../../../main/services/alerts/service'
import { isAppError } from '../../../main/services/errors'
import { createNotices } from '../../../main/services/notices'
import type { ReportingClient } from '../../../main/services/reporting/client'
import type { ReportRequest, TimeSeriesResult } from '../../../main/services/reporting/schemas'
import { runTimeSeries } from '../../../main/services/reports/runner'
import { temporaryFolder } from '../../support/services'
import { clock, definition, infoView } from '../reports/fixtures'

/**
 * A hostile platform answers 1e308 for every day before the judged week and −1e308 inside it
 * (the review's M5). A check must keep what fires with finite numbers, so the fired list reads
 * back whole at the next start, older alerts included; nothing may reach a file as null.
 */
const NOW = clock.now()
const JUDGED_FROM = '2024-06-08'
const preset: ReportDefinition = definition({ granularity: 'day', timezone: { mode: 'fixed', offset: 0 }, dates: { start: '-7d', end: 'yesterday' } })
const rule = alertRuleSchema.parse({ id: 'drop', metric: 'impressions', direction: 'drop', minChangePct: 30, minZ: 3, weeks: 3 })

function hostileAnswer(body: ReportRequest): TimeSeriesResult {
  const first = Date.parse(`${String(body.start_date)}T00:00:00Z`)
  const count = Math.round((Date.parse(`${String(body.end_date)}T00:00:00Z`) - first) / 86_400_000) + 1
  const lines = body.chart_lines as string[]
  const rows = Array.from({ length: count }, (_, index) => {
    const time = new Date(first + index * 86_400_000).toISOString().slice(0, 10)
    return { __time__: time, ...Object.fromEntries(lines.map((line) => [line, time >= JUDGED_FROM ? -1e308 : 1e308])) }
  })
  return { status: 'success', rows }
}

const reporting: ReportingClient = {
  info: () => Promise.reject(new Error('not used')),
  audience: () => Promise.reject(new Error('not used')),
  export: () => Promise.reject(new Error('not used')),
  timeSeries: async (body) => hostileAnswer(body),
}

const source: AlertDataSource = {
  infoOf: async () => infoView,
  runChart: (_profileId, made, signal) => runTimeSeries({ reporting, info: infoView, clock, monotonic: () => 0 }, made, { signal }),
}

/** A valid alert from an earlier, ordinary check. */
const older: KeptAlert = {
  id: 'older-1',
  incident: JSON.stringify(['Weekly', 'drop', 'impressions|__total__', '2024-05-01']),
  preset: 'Weekly',
  rule: 'drop',
  metric: 'impressions',
  direction: 'drop',
  series: 'Total',
  bucket: '2024-05-01',
  value: 400,
  baseline: 1_000,
  changePct: -60,
  z: -8.5,
  firedAt: '2024-05-02T08:00:00.000Z',
  dataAsOf: '2024-05-02T04:00:00.000Z',
  snoozedUntil: null,
  acknowledged: false,
  granularity: 'granularity_day',
  categories: ['2024-05-01'],
  line: {
    key: 'impressions|__total__',
    label: 'Total',
    role: 'total',
    values: [400],
    baseline: [1_000],
    low: [700],
    high: [null],
    fired: [true],
    firedCount: 1,
  },
  firedIndex: 0,
}

async function serviceIn(folder: string) {
  const notices = createNotices()
  const fired = createFiredStore({ folder, notices, now: () => NOW })
  const rules = createRuleStore({ folder, notices, now: () => NOW })
  await rules.save('Weekly', [rule])
  const service = createAlertService({
    rules,
    fired,
    source,
    presetOf: async (name) => ({ name, description: '', savedAt: NOW.toISOString(), definition: preset }),
    activeProfileId: async () => 'p1',
    lagHours: async () => 4,
    events: { emit: () => undefined },
    notify: null,
    now: () => NOW,
    osOffsetMinutes: () => 0,
  })
  return { service, fired, notices }
}

describe('alerts on numbers at the edge of a double', () => {
  it('keeps what fires with finite numbers, and the fired list reads back whole at the next start', async () => {
    const folder = await temporaryFolder()
    const { service, fired } = await serviceIn(folder)
    await fired.add([older])
    const result = await service.check('p1', 'Weekly', { signal: new AbortController().signal })
    expect(result.firings.length).toBeGreaterThan(0)
    for (const firing of result.firings) {
      expect(Number.isFinite(firing.changePct)).toBe(true)
      expect(Number.isFinite(firing.z)).toBe(true)
    }
    expect(await fs.readFile(path.join(folder, 'fired.json'), 'utf8')).not.toMatch(/null,\s*"z"|"changePct": null|"z": null/)
    const notices = createNotices()
    const reopened = createFiredStore({ folder, notices, now: () => NOW })
    const list = await reopened.list({})
    expect(notices.list()).toEqual([])
    expect(list.total).toBe(result.firings.length + 1)
    expect(list.alerts.map((alert) => alert.id)).toContain('older-1')
  })

  it('backtests on such data with an answer the contract accepts', async () => {
    const { service } = await serviceIn(await temporaryFolder())
    for (const weeks of [3, 4]) {
      const backtest = await service.backtest('p1', 'Weekly', { ...rule, weeks }, new AbortController().signal)
      const checked = backtestResultSchema.safeParse(backtest)
      expect(checked.success ? [] : checked.error.issues).toEqual([])
      expect(backtest.firedCount).toBeGreaterThan(0)
    }
  })

  it('refuses to keep an alert whose numbers are not finite, and leaves the kept list as it was', async () => {
    const folder = await temporaryFolder()
    const fired = createFiredStore({ folder, notices: createNotices(), now: () => NOW })
    await fired.add([older])
    const broken: KeptAlert = { ...older, id: 'broken', incident: 'broken', changePct: Number.NEGATIVE_INFINITY }
    const refusal = await fired.add([broken]).catch((error: unknown) => error)
    expect(isAppError(refusal) && refusal.code).toBe('storage')
    expect(isAppError(refusal) && refusal.message).toMatch(/^The alert .* was not saved because its .* is not a number AdOps Desk can store/)
    const notices = createNotices()
    expect((await createFiredStore({ folder, notices, now: () => NOW }).list({})).alerts.map((alert) => alert.id)).toEqual(['older-1'])
    expect(notices.list()).toEqual([])
  })
})

describe('a report run on numbers at the edge of a double', () => {
  it('answers a result the contract accepts: a total too large to add up is no total, with a sentence', async () => {
    const view = await runTimeSeries({ reporting, info: infoView, clock, monotonic: () => 0 }, preset, { signal: new AbortController().signal })
    const checked = timeSeriesResultSchema.safeParse(view)
    expect(checked.success ? [] : checked.error.issues).toEqual([])
    expect(view.series[0]?.stats.total).toBeNull()
    expect(view.notes).toEqual(expect.arrayContaining([expect.stringMatching(/too large to add up/)]))
  })
})
