import { vi } from 'vitest'
import type { ApiErrorShape, FileProblem, Outcome, Preset, PresetSummary, ResolvedRange, TimeSeriesView } from '@contract'
import { useReportsStore } from '../../../../renderer/src/stores/reports'
import { info, result } from './fixtures'

/** Outcomes as the bridge answers them. */
export const ok = <T>(value: T): Promise<Outcome<T>> => Promise.resolve({ ok: true, value })
export const failed = (error: ApiErrorShape): Promise<Outcome<never>> => Promise.resolve({ ok: false, error })

export const range: ResolvedRange = { start: '2026-01-29', end: '2026-02-04', timezone: 0, days: 7 }

/**
 * A stand-in window.api with the channels the reports and presets stores use: the demo's
 * `supply` info, a chart result for every run, no presets and no kept results until a test says otherwise.
 */
export function fakeReportsApi() {
  const api = {
    reports: {
      info: vi.fn(() => ok(info)),
      known: vi.fn(() => ok([{ project: 'demo', report: 'supply', fetchedAt: info.fetchedAt }])),
      resolveDates: vi.fn(() => ok(range)),
      run: vi.fn((_input: Record<string, unknown>): Promise<Outcome<TimeSeriesView>> => ok(result)),
      audience: vi.fn(),
      values: vi.fn(() => ok([])),
    },
    presets: { get: vi.fn(), list: vi.fn((): Promise<Outcome<{ presets: PresetSummary[]; refused: FileProblem[] }>> => ok({ presets: [], refused: [] })) },
    results: { get: vi.fn((_input: Record<string, unknown>): Promise<Outcome<unknown>> => ok(null)) },
    requests: { cancel: vi.fn((_input: { requestId: string }): Promise<Outcome<null>> => ok(null)) },
    history: { get: vi.fn() },
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return api
}

/** The definition the builder starts from for `info`, saved as a preset (the store is reset afterwards). */
export async function savedPreset(): Promise<Preset> {
  const reports = useReportsStore()
  await reports.start()
  const definition = JSON.parse(JSON.stringify(reports.definition)) as Preset['definition']
  reports.reset()
  return { name: 'Weekly', description: '', savedAt: '2026-02-05T08:00:00.000Z', definition }
}
