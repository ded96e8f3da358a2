// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import type { Outcome, Preset, Profile, TimeSeriesView } from '@contract'
import { useHistoryStore } from '../../../../renderer/src/stores/history'
import { usePresetsStore } from '../../../../renderer/src/stores/presets'
import { useReportsStore } from '../../../../renderer/src/stores/reports'
import { useWorkspaceStore } from '../../../../renderer/src/stores/workspace'
import { result } from './fixtures'
import { failed, fakeReportsApi, ok, savedPreset } from './fake-api'

describe('presets store', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: 'demo', defaultSlicer: 'supply', isDemo: false } as Profile
  })

  it('shows the kept chart with its time, runs under the preset name, and marks edits', async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    api.results.get.mockImplementation(() => ok({ kind: 'chart', preset: 'Weekly', ranAt: '2026-02-05T09:00:00.000Z', result }))
    let finish: (outcome: Outcome<TimeSeriesView>) => void = () => undefined
    api.reports.run.mockImplementation(() => new Promise((resolve) => (finish = resolve)))
    const presets = usePresetsStore()
    const reports = useReportsStore()

    const opening = presets.open('Weekly')
    await vi.waitFor(() => expect(api.reports.run).toHaveBeenCalled())
    expect(reports.result).toBe(result)
    expect(reports.chartAsOf).toBe('2026-02-05T09:00:00.000Z')
    expect(api.reports.run).toHaveBeenCalledWith(expect.objectContaining({ preset: 'Weekly' }))
    finish({ ok: true, value: result })
    await opening
    expect(reports.chartAsOf).toBeNull()

    expect(presets.edited).toBe(false)
    if (reports.definition) reports.definition.chart.type = reports.definition.chart.type === 'bar' ? 'line' : 'bar'
    expect(presets.edited).toBe(true)
  })

  it('keeps the kept chart and says so when the platform cannot be reached', async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    api.results.get.mockImplementation(() => ok({ kind: 'chart', preset: 'Weekly', ranAt: '2026-02-05T09:00:00.000Z', result }))
    api.reports.run.mockImplementation(() => failed({ code: 'network', message: 'The platform did not answer.' }))
    const presets = usePresetsStore()
    await presets.open('Weekly')
    const reports = useReportsStore()
    expect(reports.result).toBe(result)
    expect(reports.chartAsOf).toBe('2026-02-05T09:00:00.000Z')
    expect(presets.offlineNote).toBe('The platform did not answer.')
    // Said once, by the offline banner over the kept chart, not also as a run error.
    expect(reports.chartError).toBeNull()
  })

  it('asks main for the kept chart cut to the budget the chart last ran with, and runs with the same budget', async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    api.results.get.mockImplementation(() => ok(null))
    const reports = useReportsStore()
    const presets = usePresetsStore()
    await presets.open('Weekly')
    // Before the chart ever asked: main's default, on both calls.
    expect(api.results.get.mock.calls[0]?.[0]).not.toHaveProperty('pointBudget')
    expect(api.reports.run.mock.calls[0]?.[0]).not.toHaveProperty('pointBudget')
    await reports.run(1_234.4)
    await presets.open('Weekly')
    expect(api.results.get.mock.calls[1]?.[0]).toMatchObject({ pointBudget: 1_234 })
    expect(api.reports.run.mock.calls[2]?.[0]).toMatchObject({ pointBudget: 1_234 })
  })

  it('opening a preset while another run is in flight cancels that run through main and shows the opened one, however late the old answer', async () => {
    const api = fakeReportsApi()
    const weekly = await savedPreset()
    const monthly: Preset = { ...weekly, name: 'Monthly', definition: { ...weekly.definition, dates: { ...weekly.definition.dates, start: '-30d' } } }
    api.presets.get.mockImplementation(({ name }: { name: string }) => ok(name === 'Monthly' ? monthly : weekly))
    // Each run answers only when the test says so, in the order the test picks.
    const answers: ((outcome: Outcome<TimeSeriesView>) => void)[] = []
    api.reports.run.mockImplementation(() => new Promise((resolve) => answers.push(resolve)))
    const reports = useReportsStore()
    const presets = usePresetsStore()

    const weeklyOpening = presets.open('Weekly')
    await vi.waitFor(() => expect(api.reports.run).toHaveBeenCalledTimes(1))
    const weeklyRun = api.reports.run.mock.calls[0]?.[0] as { requestId: string }
    const monthlyOpening = presets.open('Monthly')
    await vi.waitFor(() => expect(api.reports.run).toHaveBeenCalledTimes(2))

    // Cancelled the way Cancel does it (so main ends the query and its history says cancelled), before the new run is sent.
    expect(api.requests.cancel).toHaveBeenCalledWith({ requestId: weeklyRun.requestId })
    expect(api.requests.cancel.mock.invocationCallOrder[0]).toBeLessThan(api.reports.run.mock.invocationCallOrder[1] ?? 0)
    const monthlyRun = api.reports.run.mock.calls[1]?.[0] as { requestId: string; preset: string; definition: Preset['definition'] }
    expect(monthlyRun).toMatchObject({ preset: 'Monthly', definition: { dates: { start: '-30d' } } })
    expect(monthlyRun.requestId).not.toBe(weeklyRun.requestId)
    expect(reports.chartRun?.requestId).toBe(monthlyRun.requestId)

    // The old run's answer, late and even a success, lands nowhere; the opened preset's does.
    const weeklyResult: TimeSeriesView = { ...result, ranAt: '2026-02-05T11:00:00.000Z' }
    const monthlyResult: TimeSeriesView = { ...result, ranAt: '2026-02-05T11:00:05.000Z' }
    answers[0]?.({ ok: true, value: weeklyResult })
    await weeklyOpening
    expect(reports.result).toBeNull()
    expect(reports.chartRun?.requestId).toBe(monthlyRun.requestId)
    answers[1]?.({ ok: true, value: monthlyResult })
    await monthlyOpening
    expect(reports.result).toBe(monthlyResult)
    expect(reports.chartError).toBeNull()
    expect(reports.chartRun).toBeNull()
    expect(reports.stale).toBe(false)
    expect(presets.current?.name).toBe('Monthly')
    expect(reports.definition?.dates.start).toBe('-30d')

    // The other way round: the old answer after the new one (a cancelled error, as main sends it) changes nothing either.
    const again = presets.open('Weekly')
    await vi.waitFor(() => expect(api.reports.run).toHaveBeenCalledTimes(3))
    const reopening = presets.open('Monthly')
    await vi.waitFor(() => expect(api.reports.run).toHaveBeenCalledTimes(4))
    expect(api.requests.cancel).toHaveBeenLastCalledWith({ requestId: (api.reports.run.mock.calls[2]?.[0] as { requestId: string }).requestId })
    answers[3]?.({ ok: true, value: monthlyResult })
    await reopening
    answers[2]?.({ ok: false, error: { code: 'cancelled', message: 'The report was cancelled.' } })
    await again
    expect(reports.result).toBe(monthlyResult)
    expect(reports.chartError).toBeNull()
    expect(presets.current?.name).toBe('Monthly')
  })

  it.each(['preset', 'kept chart'])('two quick opens: the later one is shown even when the earlier one reads its %s last', async (slow) => {
    const api = fakeReportsApi()
    const weekly = await savedPreset()
    const monthly: Preset = { ...weekly, name: 'Monthly', definition: { ...weekly.definition, dates: { ...weekly.definition.dates, start: '-30d' } } }
    let weeklyRead: (outcome: Outcome<Preset>) => void = () => undefined
    api.presets.get.mockImplementation(({ name }: { name: string }) =>
      name === 'Monthly' ? ok(monthly) : slow === 'preset' ? new Promise((resolve) => (weeklyRead = resolve)) : ok(weekly),
    )
    // Weekly's kept chart is read slowly; Monthly's at once.
    let weeklyKept: (outcome: Outcome<unknown>) => void = () => undefined
    api.results.get.mockImplementation((input: Record<string, unknown>) =>
      input.preset === 'Weekly' ? new Promise((resolve) => (weeklyKept = resolve)) : ok(null),
    )
    const reports = useReportsStore()
    const presets = usePresetsStore()
    const weeklyOpening = presets.open('Weekly')
    await vi.waitFor(() => expect(slow === 'preset' ? api.presets.get : api.results.get).toHaveBeenCalledTimes(1))
    await presets.open('Monthly')
    weeklyRead({ ok: true, value: weekly })
    weeklyKept({ ok: true, value: { kind: 'chart', preset: 'Weekly', ranAt: '2026-02-05T09:00:00.000Z', result } })
    await weeklyOpening
    expect(reports.definition?.dates.start).toBe('-30d')
    // Weekly's kept chart never replaced Monthly's fresh run.
    expect(reports.chartAsOf).toBeNull()
    expect(reports.preset).toBe('Monthly')
    expect(api.reports.run).toHaveBeenCalledTimes(1)
    expect(api.reports.run).toHaveBeenCalledWith(expect.objectContaining({ preset: 'Monthly' }))
  })

  it("asks for the report's info while main reads the kept chart, and opens with that same answer", async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    let kept: (outcome: Outcome<unknown>) => void = () => undefined
    api.results.get.mockImplementation(() => new Promise((resolve) => (kept = resolve)))
    const presets = usePresetsStore()
    const before = api.reports.info.mock.calls.length
    const opening = presets.open('Weekly')
    await vi.waitFor(() => expect(api.results.get).toHaveBeenCalled())
    expect(api.reports.info).toHaveBeenCalledTimes(before + 1)
    kept({ ok: true, value: null })
    await opening
    expect(api.reports.info).toHaveBeenCalledTimes(before + 1)
    expect(useReportsStore().definition?.project).toBe(preset.definition.project)
  })

  it('re-opening a history entry while a run is in flight cancels that run and runs the entry', async () => {
    const api = fakeReportsApi()
    const weekly = await savedPreset()
    api.presets.get.mockImplementation(() => ok(weekly))
    api.history.get.mockImplementation(() =>
      ok({ id: 'h1', preset: null, definition: { ...weekly.definition, dates: { ...weekly.definition.dates, start: '-30d' } } }),
    )
    const answers: ((outcome: Outcome<TimeSeriesView>) => void)[] = []
    api.reports.run.mockImplementation(() => new Promise((resolve) => answers.push(resolve)))
    const reports = useReportsStore()
    const opening = usePresetsStore().open('Weekly')
    await vi.waitFor(() => expect(api.reports.run).toHaveBeenCalledTimes(1))
    const first = api.reports.run.mock.calls[0]?.[0] as { requestId: string }
    const history = useHistoryStore()
    vi.spyOn(history, 'load').mockResolvedValue()
    const reopening = history.reopen('h1', true)
    await vi.waitFor(() => expect(api.reports.run).toHaveBeenCalledTimes(2))
    expect(api.requests.cancel).toHaveBeenCalledWith({ requestId: first.requestId })
    expect(api.reports.run.mock.calls[1]?.[0]).toMatchObject({ preset: null, definition: { dates: { start: '-30d' } } })
    answers[1]?.({ ok: true, value: result })
    await reopening
    answers[0]?.({ ok: true, value: { ...result } })
    await opening
    expect(reports.result).toBe(result)
  })

  it('searches every word in the name, description, report and fields, whatever the case; a new list replaces the old', async () => {
    const api = fakeReportsApi()
    const summary = (name: string, description: string, metrics: string[]) => ({
      name,
      description,
      savedAt: '2026-02-05T08:00:00.000Z',
      project: 'demo',
      report: 'supply',
      metrics,
      breakdown: ['country'],
      dates: { start: '-7d', end: 'today' },
    })
    api.presets.list.mockImplementation(() =>
      ok({ presets: [summary('Weekly Revenue', 'for Monday', ['revenue']), summary('Fill check', 'by COUNTRY', ['fill_rate'])], refused: [] }),
    )
    const presets = usePresetsStore()
    await presets.load()
    const names = () => presets.filtered.map((preset) => preset.name)
    presets.search = 'monday REVENUE'
    expect(names()).toEqual(['Weekly Revenue'])
    presets.search = '  country  supply '
    expect(names()).toEqual(['Weekly Revenue', 'Fill check'])
    presets.search = 'fill weekly'
    expect(names()).toEqual([])
    api.presets.list.mockImplementation(() => ok({ presets: [summary('Weekly fill', '', ['fill_rate'])], refused: [] }))
    await presets.load()
    expect(names()).toEqual(['Weekly fill'])
    // Read again (the panel shown after the idle read at start-up) with nothing changed: the same array, so nothing renders again.
    const before = presets.presets
    await presets.load()
    expect(presets.presets).toBe(before)
  })

  it('starts the run of an opened preset once its kept chart is painted, not in the same task', async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    api.results.get.mockImplementation(() => ok({ kind: 'chart', preset: 'Weekly', ranAt: '2026-02-05T09:00:00.000Z', result }))
    const frames: FrameRequestCallback[] = []
    const requestFrame = vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback))
    try {
      const opening = usePresetsStore().open('Weekly')
      await vi.waitFor(() => expect(frames).toHaveLength(1))
      expect(useReportsStore().result).toBe(result)
      expect(api.reports.run).not.toHaveBeenCalled()
      frames[0]?.(0)
      await opening
      expect(api.reports.run).toHaveBeenCalledWith(expect.objectContaining({ preset: 'Weekly' }))
    } finally {
      requestFrame.mockRestore()
    }
  })
})

describe('a preset with no kept result and no connection', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: 'demo', defaultSlicer: 'supply', isDemo: false } as Profile
  })
  const unreachable = { code: 'network' as const, message: 'Nothing answers at 127.0.0.1:9.' }

  it('says no result is kept and the platform cannot be reached, when even the report cannot be opened', async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    api.reports.info.mockImplementation(() => failed(unreachable))
    const presets = usePresetsStore()
    await presets.open('Weekly')
    expect(presets.unavailable).toEqual({ preset: 'Weekly', reason: 'Nothing answers at 127.0.0.1:9.' })
    // One message: the report's own "could not be opened" is not said beside it.
    expect(useReportsStore().infoError).toBeNull()
  })

  it('says so when the report opens from the copy on disk but its run cannot reach the platform', async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    api.reports.run.mockImplementation(() => failed(unreachable))
    const presets = usePresetsStore()
    const reports = useReportsStore()
    await presets.open('Weekly')
    expect(presets.unavailable).toEqual({ preset: 'Weekly', reason: 'Nothing answers at 127.0.0.1:9.' })
    expect(reports.chartError).toBeNull()
    // A run that then succeeds leaves nothing to say.
    api.reports.run.mockImplementation(() => ok(result))
    await reports.run()
    expect(presets.unavailable).toBeNull()
  })

  it('says nothing of the kind for another failure', async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    api.reports.run.mockImplementation(() => failed({ code: 'validation', message: 'Pick a metric.' }))
    const presets = usePresetsStore()
    await presets.open('Weekly')
    expect(presets.unavailable).toBeNull()
    expect(useReportsStore().chartError?.message).toBe('Pick a metric.')
  })
})
