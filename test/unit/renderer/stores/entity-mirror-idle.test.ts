// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { reactive } from 'vue'
import type { Entity, Outcome } from '@contract'
import { ApiError } from '../../../../renderer/src/api/bridge'
import { blankKindState, createMirrorLoader, type KindState, type MirrorDependencies } from '../../../../renderer/src/stores/entityMirror'
import type { InputQuiet } from '../../../../renderer/src/lib/idle'
import { manualCallbacks } from '../../../support/manual-callbacks'

/**
 * The rest of a long mirror arrives while the user may already be typing in the search box: each
 * step of the list shown growing (a re-render, and the search extended over the new rows) waits
 * for an idle moment of the page, so a keystroke's search and frame come first.
 */

const rows = (from: number, to: number): Entity[] =>
  Array.from({ length: to - from + 1 }, (_, index) => ({ id: from + index, name: `Publisher ${from + index}` }))

/** Never a key pressed: the rest of the list never waits for the typing to pause. */
const neverTyped: InputQuiet = { sinceInput: () => Number.POSITIVE_INFINITY }

/**
 * A 12,000-row mirror behind a fake bridge that notes the offset of every slice asked for, and a
 * loader over one kind's state with the given idle moments and typing.
 */
function arrivingMirror(dependencies: Required<Pick<MirrorDependencies, 'idle' | 'inputQuiet'>>) {
  const all = rows(1, 12_000)
  const asked: number[] = []
  const mirror = vi.fn((request: { offset?: number; limit?: number }): Promise<Outcome<{ rows: Entity[]; syncedAt: string; total: number }>> => {
    const offset = request.offset ?? 0
    asked.push(offset)
    const slice = all.slice(offset, request.limit === undefined ? undefined : offset + request.limit)
    return Promise.resolve({ ok: true, value: { rows: slice, syncedAt: '2026-01-01T00:00:00.000Z', total: all.length } })
  })
  Object.defineProperty(window, 'api', { value: { entities: { mirror } }, configurable: true })
  const state: KindState = reactive(blankKindState('p1', 'publishers')) as KindState
  const loader = createMirrorLoader({
    state: () => state,
    noteError: (_profile, _kind, error) => new ApiError({ code: 'internal', message: String(error) }),
    online: () => undefined,
    ...dependencies,
  })
  return { all, asked, state, loader }
}

describe('a long mirror arriving', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('grows the list shown only in idle moments of the page, and ends with every row in order', async () => {
    const callbacks = manualCallbacks()
    const { all, state, loader } = arrivingMirror({ idle: { request: callbacks.add, cancel: callbacks.remove }, inputQuiet: neverTyped })
    const opened = loader.open('p1', 'publishers')
    await vi.advanceTimersByTimeAsync(0)
    // The first screenful is shown at once; the rest came over the bridge but waits for the page to be idle.
    expect(state.rows).toHaveLength(300)
    expect(state.pendingTotal).toBe(12_000)
    expect(callbacks.waiting.size).toBe(1)
    await vi.advanceTimersByTimeAsync(20)
    expect(state.rows).toHaveLength(300)
    while (callbacks.waiting.size > 0) {
      callbacks.run()
      await vi.advanceTimersByTimeAsync(0)
    }
    await opened
    expect(state.rows.map((row) => row.id)).toEqual(all.map((row) => row.id))
    expect(state.pendingTotal).toBeNull()
  })

  it('asks for the rest only in a pause of the typing: a key pressed is never kept waiting by a slice decoded', async () => {
    let lastKey = Number.NEGATIVE_INFINITY
    const { all, asked, state, loader } = arrivingMirror({
      idle: { request: (callback) => (callback(), 0), cancel: () => undefined },
      inputQuiet: { sinceInput: () => Date.now() - lastKey },
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
