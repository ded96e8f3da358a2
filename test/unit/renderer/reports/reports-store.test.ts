// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { toRaw } from 'vue'
import type { Outcome, Profile, ReportInfoView, TimeSeriesView } from '@contract'
import { useReportsStore } from '../../../../renderer/src/stores/reports'
import { useWorkspaceStore } from '../../../../renderer/src/stores/workspace'
import { result } from './fixtures'
import { failed, fakeReportsApi } from './fake-api'

function activate(defaults: { project: string | null; report: string | null }): void {
  useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: defaults.project, defaultSlicer: defaults.report, isDemo: false } as Profile
}

describe('reports store', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('opens the profile’s default report and starts from its info', async () => {
    const api = fakeReportsApi()
    activate({ project: 'demo', report: 'supply' })
    const store = useReportsStore()
    await store.start()
    expect(api.reports.info).toHaveBeenCalledWith({ profileId: 'p1', project: 'demo', report: 'supply' })
    expect(store.definition?.metrics).toEqual(['impressions'])
    expect(store.chartBlocked).toBeNull()
  })

  it('keeps the info object the builder renders from when the same description comes again, and takes a changed one', async () => {
    const api = fakeReportsApi()
    activate({ project: 'demo', report: 'supply' })
    const store = useReportsStore()
    await store.start()
    const first = store.info
    // As from main: the same description, in a new object.
    api.reports.info.mockResolvedValueOnce({ ok: true, value: structuredClone(toRaw(first) as ReportInfoView) })
    await store.open('demo', 'supply')
    expect(store.info).toBe(first)
    api.reports.info.mockResolvedValueOnce({ ok: true, value: { ...(toRaw(first) as ReportInfoView), fetchedAt: '2030-01-01T00:00:00.000Z' } })
    await store.open('demo', 'supply', true)
    expect(store.info).not.toBe(first)
    expect(store.info?.fetchedAt).toBe('2030-01-01T00:00:00.000Z')
  })

  it('falls back to the report opened last when the profile names none', async () => {
    const api = fakeReportsApi()
    activate({ project: null, report: null })
    await useReportsStore().start()
    expect(api.reports.info).toHaveBeenCalledWith({ profileId: 'p1', project: 'demo', report: 'supply' })
  })

  it('runs a plain copy of the definition with a request id, and cancels by that id', async () => {
    const api = fakeReportsApi()
    activate({ project: 'demo', report: 'supply' })
    const store = useReportsStore()
    await store.start()
    let finish: (outcome: Outcome<TimeSeriesView>) => void = () => undefined
    api.reports.run.mockImplementation(() => new Promise((resolve) => (finish = resolve)))
    const running = store.run(900)
    expect(store.chartRun).not.toBeNull()
    const sent = api.reports.run.mock.calls[0] as unknown as [{ requestId: string; pointBudget: number; definition: unknown }]
    expect(sent[0]).toMatchObject({ profileId: 'p1', pointBudget: 900, definition: { project: 'demo', report: 'supply' } })
    await store.cancel('chart')
    expect(api.requests.cancel).toHaveBeenCalledWith({ requestId: sent[0].requestId })
    finish({ ok: false, error: { code: 'cancelled', message: 'The report was cancelled.' } })
    await running
    expect(store.chartRun).toBeNull()
    expect(store.chartError?.code).toBe('cancelled')
    expect(store.result).toBeNull()
  })

  it('a pasted request put in the builder cancels the chart and audience runs in flight; their answers are dropped', async () => {
    const api = fakeReportsApi()
    activate({ project: 'demo', report: 'supply' })
    const store = useReportsStore()
    await store.start()
    let finishChart: (outcome: Outcome<TimeSeriesView>) => void = () => undefined
    let finishAudience: (outcome: Outcome<unknown>) => void = () => undefined
    api.reports.run.mockImplementation(() => new Promise((resolve) => (finishChart = resolve)))
    api.reports.audience.mockImplementation(() => new Promise((resolve) => (finishAudience = resolve)))
    const chart = store.run()
    const audience = store.runAudience()
    const chartId = store.chartRun?.requestId
    const audienceId = store.audienceRun?.requestId
    const pasted = { ...JSON.parse(JSON.stringify(store.definition)), metrics: ['revenue'] }

    expect(await store.load(pasted, null)).toBe(true)
    expect(api.requests.cancel).toHaveBeenCalledWith({ requestId: chartId })
    expect(api.requests.cancel).toHaveBeenCalledWith({ requestId: audienceId })
    expect(store.chartRun).toBeNull()
    expect(store.audienceRun).toBeNull()
    finishChart({ ok: true, value: result })
    finishAudience({ ok: true, value: { rows: [] } })
    await Promise.all([chart, audience])
    expect(store.result).toBeNull()
    expect(store.audienceResult).toBeNull()
    expect(store.chartError).toBeNull()
    expect(store.definition?.metrics).toEqual(['revenue'])
  })

  it('keeps the point budget the chart panel measured, within what main accepts, for runs without one', async () => {
    const api = fakeReportsApi()
    activate({ project: 'demo', report: 'supply' })
    const store = useReportsStore()
    await store.start()
    expect(store.pointBudget).toBeUndefined()
    store.setPointBudget(1_234.4)
    await store.run()
    expect(api.reports.run.mock.calls[0]).toEqual([expect.objectContaining({ pointBudget: 1_234 })])
    store.setPointBudget(3)
    expect(store.pointBudget).toBe(50)
    store.setPointBudget(1e9)
    expect(store.pointBudget).toBe(20_000)
  })

  it('keeps the result and knows when the builder has moved on', async () => {
    fakeReportsApi()
    activate({ project: 'demo', report: 'supply' })
    const store = useReportsStore()
    await store.start()
    await store.run()
    expect(store.result).toBe(result)
    expect(store.stale).toBe(false)
    store.setHidden(['impressions|FR'])
    expect(store.stale).toBe(false)
    store.definition!.comparison = 'previous_period'
    expect(store.stale).toBe(true)
  })

  it('shows a bad_request reason at the field it names, and resolver errors at their end', async () => {
    const api = fakeReportsApi()
    activate({ project: 'demo', report: 'supply' })
    const store = useReportsStore()
    await store.start()
    api.reports.run.mockImplementation(() =>
      failed({ code: 'validation', message: 'The report request was rejected: too many lines.', details: { field: 'chart_lines' } }),
    )
    await store.run()
    expect(store.fieldError('lines')).toBe('The report request was rejected: too many lines.')
    expect(store.fieldError('metrics')).toBeNull()

    api.reports.resolveDates.mockImplementation(() => failed({ code: 'bad_input', message: 'Unknown date “-7x”.', details: { field: 'dates', part: 'start' } }))
    store.definition!.dates.start = '-7x'
    await store.resolveDates()
    expect(store.fieldError('dates.start')).toBe('Unknown date “-7x”.')
    expect(store.chartBlocked).toBe('The dates need fixing: Unknown date “-7x”.')
  })

  it('keeps the open report’s error for the picker when info cannot be had', async () => {
    const api = fakeReportsApi()
    activate({ project: 'demo', report: 'supply' })
    api.reports.info.mockImplementation(() => failed({ code: 'validation', message: 'No report “nope”.', details: { field: 'slicer_name' } }) as never)
    const store = useReportsStore()
    expect(await store.open('demo', 'nope')).toBe(false)
    expect(store.fieldError('report')).toBe('No report “nope”.')
    expect(store.definition).toBeNull()
  })
})
