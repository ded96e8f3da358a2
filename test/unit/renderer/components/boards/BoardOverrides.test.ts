// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NMessageProvider } from 'naive-ui'
import type { Board, BoardOverrides, OpenTile, Profile } from '@contract'
import BoardCanvas from '../../../../../renderer/src/components/boards/BoardCanvas.vue'
import BoardOverridesControl from '../../../../../renderer/src/components/boards/BoardOverridesControl.vue'
import { useWorkspaceStore } from '../../../../../renderer/src/stores/workspace'
import { sampleDefinition } from '../../../../support/channel-samples'

/** The canvas as the app mounts it: under the message provider its Export buttons report through. */
const mountCanvas = () =>
  mount(defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(BoardCanvas, { name: 'Morning' }) }) }), { attachTo: document.body })

const ok = <T>(value: T) => Promise.resolve({ ok: true, value })
const tile: OpenTile = {
  id: 'tile-1',
  title: 'Supply',
  view: 'chart',
  place: { x: 0, y: 0, w: 6, h: 4 },
  preset: 'Supply',
  definition: sampleDefinition,
  problem: null,
}

/** An open board of one tile whose board names its own connection; every run and kept result records the connection it was asked on. */
function fakeApi(overrides: BoardOverrides) {
  let board: Board = { name: 'Morning', description: '', savedAt: '2026-11-26T06:00:00.000Z', overrides, tiles: [] }
  const asked: Array<[string, string]> = []
  const api = {
    boards: {
      open: vi.fn(() => ok({ board, tiles: [tile] })),
      list: vi.fn(() => ok({ boards: [], refused: [] })),
      save: vi.fn((input: { board: Board }) => ok((board = input.board))),
    },
    results: {
      getMany: vi.fn((input: { profileId: string; queries: unknown[] }) => (asked.push(['kept', input.profileId]), ok(input.queries.map(() => null)))),
    },
    reports: {
      run: vi.fn(
        (input: { profileId: string }) => (asked.push(['run', input.profileId]), Promise.resolve({ ok: false, error: { code: 'server', message: 'no' } })),
      ),
    },
    presets: { list: vi.fn(() => ok({ presets: [], refused: [] })) },
    alerts: { fired: vi.fn(() => ok({ alerts: [], total: 0 })) },
    requests: { cancel: vi.fn(() => ok(null)) },
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return { api, asked }
}

describe("the board's overrides", () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    useWorkspaceStore().active = { id: 'active-one', name: 'Active', isDemo: false } as Profile
  })

  it("runs every tile on the board's own connection, and on the active one once the override is cleared", async () => {
    const { api, asked } = fakeApi({ dates: { start: '-7d', end: '-1d' }, timezone: null, profileId: 'profile-eu' })
    const wrapper = mountCanvas()
    await flushPromises()
    expect(asked).toEqual([
      ['kept', 'profile-eu'],
      ['run', 'profile-eu'],
    ])
    // The board says what it overrides, and the tile that it runs with the board's dates.
    expect(wrapper.find('[data-test="board-overrides"]').text()).toBe("Every tile uses the board's dates -7d → -1d and connection a deleted connection.")
    expect(wrapper.find('[data-test="tile-override"]').text()).toBe("· Board's dates")

    asked.length = 0
    wrapper.findComponent(BoardOverridesControl).vm.$emit('save', { dates: null, timezone: null, profileId: null })
    await flushPromises()
    expect(api.boards.save).toHaveBeenCalledWith({
      board: expect.objectContaining({ overrides: { dates: null, timezone: null, profileId: null } }),
      replace: true,
    })
    // Saved, the board opens again with them: the active connection, no note on the tile.
    expect(asked).toEqual([
      ['kept', 'active-one'],
      ['run', 'active-one'],
    ])
    expect(wrapper.find('[data-test="tile-override"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('keeps the active connection for a board that names none (written before the override existed)', async () => {
    const { asked } = fakeApi({ dates: null, timezone: null })
    const wrapper = mountCanvas()
    await flushPromises()
    expect(asked[0]).toEqual(['kept', 'active-one'])
    expect(wrapper.find('[data-test="board-overrides"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
