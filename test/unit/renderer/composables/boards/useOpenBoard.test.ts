// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, isProxy, ref } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Board, OpenTile, Profile } from '@contract'
import { useOpenBoard } from '../../../../../renderer/src/composables/boards/useOpenBoard'
import { useWorkspaceStore } from '../../../../../renderer/src/stores/workspace'
import { sampleDefinition } from '../../../../support/channel-samples'
import { singleSeriesChart } from '../../../../support/chart-results'

const ok = <T>(value: T) => Promise.resolve({ ok: true, value })
const board: Board = { name: 'Morning', description: '', savedAt: '2026-11-26T06:00:00.000Z', overrides: { dates: null, timezone: null }, tiles: [] }
const tile = (id: string, preset: string | null): OpenTile => ({
  id,
  title: id,
  view: 'chart',
  place: { x: 0, y: 0, w: 4, h: 4 },
  preset,
  definition: preset === null ? null : { ...sampleDefinition, project: id },
  problem: preset === null ? 'Its preset was deleted.' : null,
})
const tiles = [tile('t1', 'One'), tile('t2', null), tile('t3', 'Three'), tile('t4', 'Four')]
const kept = (ranAt: string) => ({ kind: 'chart', preset: 'x', ranAt, result: singleSeriesChart({ values: [1, 2, 3], ranAt, timezone: 0, durationMs: 1 }) })

/** The bridge as an open board uses it; the refresh after painting is held (never answers) so only the paint is seen. */
function fakeApi() {
  const api = {
    boards: { open: vi.fn(() => ok({ board, tiles })), list: vi.fn(() => ok({ boards: [], refused: [] })) },
    results: {
      get: vi.fn(() => ok(null)),
      getMany: vi.fn(() => ok([kept('ran t1'), null, kept('ran t4')])),
    },
    reports: { run: vi.fn(() => new Promise(() => undefined)), audience: vi.fn(() => new Promise(() => undefined)) },
    requests: { cancel: vi.fn(() => ok(null)) },
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return api
}

describe('opening a board', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('reads every kept result in one call to main, and holds them raw', async () => {
    const api = fakeApi()
    useWorkspaceStore().active = { id: 'p1', name: 'Demo', defaultProject: '', defaultSlicer: '', isDemo: true } as Profile
    let opened: ReturnType<typeof useOpenBoard> | null = null
    const wrapper = mount(
      defineComponent({
        setup() {
          opened = useOpenBoard(ref('Morning'))
          return () => null
        },
      }),
    )
    await flushPromises()
    // One call for the board, not one per tile; the tile whose preset is gone is not asked for.
    expect(api.results.get).not.toHaveBeenCalled()
    expect(api.results.getMany).toHaveBeenCalledTimes(1)
    expect(api.results.getMany).toHaveBeenCalledWith({
      profileId: 'p1',
      queries: ['t1', 't3', 't4'].map((id) => ({
        definition: { ...sampleDefinition, project: id },
        preset: expect.any(String),
        kind: 'chart',
        pointBudget: 400,
      })),
    })
    const board = opened as unknown as ReturnType<typeof useOpenBoard>
    expect(board.shownOf('t1').ranAt).toBe('ran t1')
    expect(board.shownOf('t3').chart).toBeNull()
    expect(board.shownOf('t4').ranAt).toBe('ran t4')
    // Raw: Vue never wraps the series values in proxies for the chart's option to read through.
    expect(isProxy(board.shownOf('t1').chart)).toBe(false)
    wrapper.unmount()
  })
})
