// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { reactive } from 'vue'
import type { Entity, Outcome } from '@contract'
import { ApiError } from '../../../../renderer/src/api/bridge'
import { blankKindState, createMirrorLoader, type KindState } from '../../../../renderer/src/stores/entityMirror'
import type { IdleScheduler, InputQuiet } from '../../../../renderer/src/lib/idle'
import { manualCallbacks } from '../../../support/manual-callbacks'

/**
 * The rest of a long mirror arrives while the user may already be typing in the search box: each
 * step of the list shown growing (a re-render, and the search extended over the new rows) waits
 * for an idle moment of the page, so a keystroke's search and frame come first.
 */

const rows = (from: number, to: number): Entity[] =>
  Array.from({ length: to - from + 1 }, (_, index) => ({ id: from + index, name: `Publisher ${from + index}` }))

describe('a long mirror arriving', () => {
  it('grows the list shown only in idle moments of the page, and ends with every row in order', async () => {
    const all = rows(1, 12_000)
    const mirror = vi.fn((request: { offset?: number; limit?: number }): Promise<Outcome<{ rows: Entity[]; syncedAt: string; total: number }>> => {
      const offset = request.offset ?? 0
      const slice = all.slice(offset, request.limit === undefined ? undefined : offset + request.limit)
      return Promise.resolve({ ok: true, value: { rows: slice, syncedAt: '2026-01-01T00:00:00.000Z', total: all.length } })
    })
    Object.defineProperty(window, 'api', { value: { entities: { mirror } }, configurable: true })
    const callbacks = manualCallbacks()
    const idle: IdleScheduler = { request: callbacks.add, cancel: callbacks.remove }
    const state: KindState = reactive(blankKindState('p1', 'publishers')) as KindState
    const loader = createMirrorLoader({
      state: () => state,
      noteError: (_profile, _kind, error) => new ApiError({ code: 'internal', message: String(error) }),
      online: () => undefined,
      idle,
    })
    const opened = loader.open('p1', 'publishers')
    await flushPromises()
    // The first screenful is shown at once; the rest came over the bridge but waits for the page to be idle.
    expect(state.rows).toHaveLength(300)
    expect(state.pendingTotal).toBe(12_000)
    expect(callbacks.waiting.size).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(state.rows).toHaveLength(300)
    while (callbacks.waiting.size > 0) {
      callbacks.run()
      await flushPromises()
    }
    await opened
    expect(state.rows.map((row) => row.id)).toEqual(all.map((row) => row.id))
    expect(state.pendingTotal).toBeNull()
  })

  afterEach(() => vi.useRealTimers())

  it('asks for the rest only in a pause of the typing: a key pressed is never kept waiting by a slice decoded', async () => {
    vi.useFakeTimers()
    const all = rows(1, 12_000)
    const asked: number[] = []
    const mirror = vi.fn((request: { offset?: number; limit?: number }): Promise<Outcome<{ rows: Entity[]; syncedAt: string; total: number }>> => {
      const offset = request.offset ?? 0
      asked.push(offset)
      const slice = all.slice(offset, request.limit === undefined ? undefined : offset + request.limit)
      return Promise.resolve({ ok: true, value: { rows: slice, syncedAt: '2026-01-01T00:00:00.000Z', total: all.length } })
    })
    Object.defineProperty(window, 'api', { value: { entities: { mirror } }, configurable: true })
    let lastKey = Number.NEGATIVE_INFINITY
    const inputQuiet: InputQuiet = { sinceInput: () => Date.now() - lastKey }
    const idle: IdleScheduler = { request: (callback) => (callback(), 0), cancel: () => undefined }
    const state: KindState = reactive(blankKindState('p1', 'publishers')) as KindState
    const loader = createMirrorLoader({
      state: () => state,
      noteError: (_profile, _kind, error) => new ApiError({ code: 'internal', message: String(error) }),
      online: () => undefined,
      idle,
      inputQuiet,
    })
    lastKey = Date.now()
    const opened = loader.open('p1', 'publishers')
    // Keys every 50 ms for half a second: only the first screenful is asked for meanwhile.
    for (let key = 0; key < 10; key++) {
      await vi.advanceTimersByTimeAsync(50)
      lastKey = Date.now()
    }
    expect(asked).toEqual([0])
    expect(state.rows).toHaveLength(300)
    // A pause of 100 ms: the rest comes, slice after slice, while no key is pressed.
    await vi.advanceTimersByTimeAsync(100)
    await opened
    expect(asked).toEqual([0, 300, 5_300, 10_300])
    expect(state.rows.map((row) => row.id)).toEqual(all.map((row) => row.id))
  })
})
