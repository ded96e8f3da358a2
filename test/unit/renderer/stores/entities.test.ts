// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { watch } from 'vue'
import type { Entity, EventPayload, Outcome } from '@contract'
import { useConnectivityStore } from '../../../../renderer/src/stores/connectivity'
import { useEntitiesStore } from '../../../../renderer/src/stores/entities'
import { brandsSpec, publishersSpec } from '../fixtures/entitySpecs'

type Listener = (payload: EventPayload<'onSyncProgress'>) => void

/** A stand-in window.api: answers from functions the test sets, and lets the test fire sync events. */
function fakeApi() {
  const listeners: Listener[] = []
  const ok = <T>(value: T): Promise<Outcome<T>> => Promise.resolve({ ok: true, value })
  const api = {
    entities: {
      kinds: vi.fn(() => ok([publishersSpec, brandsSpec])),
      mirror: vi.fn(() => ok<{ rows: Entity[]; syncedAt: string | null }>({ rows: [], syncedAt: null })),
      sync: vi.fn((): Promise<Outcome<{ count: number; syncedAt: string }>> => ok({ count: 0, syncedAt: '2026-01-01T00:00:00.000Z' })),
      get: vi.fn(),
      create: vi.fn(),
      update: vi.fn(),
      delete: vi.fn((): Promise<Outcome<null>> => ok(null)),
      exportCsv: vi.fn(),
    },
    drafts: { list: vi.fn(() => ok([])), save: vi.fn(() => ok(null)), discard: vi.fn(() => ok(null)) },
    requests: { cancel: vi.fn(() => ok(null)) },
    onSyncProgress: (listener: Listener) => {
      listeners.push(listener)
      return () => undefined
    },
    onThrottled: () => () => undefined,
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return { api, emit: (payload: EventPayload<'onSyncProgress'>) => listeners.forEach((listener) => listener(payload)) }
}

const rows = (from: number, to: number): Entity[] =>
  Array.from({ length: to - from + 1 }, (_, index) => ({ id: from + index, name: `Publisher ${from + index}` }))

describe('entities store', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.useRealTimers()
  })

  it('syncs a never-synced kind at once and shows rows as pages stream in', async () => {
    const { api, emit } = fakeApi()
    let finish: (value: Outcome<{ count: number; syncedAt: string }>) => void = () => undefined
    api.entities.sync.mockImplementation(() => new Promise((resolve) => (finish = resolve)))
    const store = useEntitiesStore()
    const opening = store.open('p1', 'publishers')
    await vi.waitFor(() => expect(api.entities.sync).toHaveBeenCalled())
    const state = store.peek('p1', 'publishers')
    expect(state.sync).toMatchObject({ fetched: 0, streaming: true })

    emit({ profileId: 'p1', kind: 'publishers', fetched: 2, count: 4, rows: rows(1, 2) })
    expect(state.sync).toMatchObject({ fetched: 2, count: 4 })
    await vi.waitFor(() => expect(state.rows).toHaveLength(2), { timeout: 2000 })
    emit({ profileId: 'p1', kind: 'publishers', fetched: 4, count: 4, rows: rows(3, 4) })
    finish({ ok: true, value: { count: 4, syncedAt: '2026-02-02T00:00:00.000Z' } })
    await opening
    expect(state.rows.map((row) => row.id)).toEqual([1, 2, 3, 4])
    expect(state.syncedAt).toBe('2026-02-02T00:00:00.000Z')
    expect(state.sync).toBeNull()
    expect(store.names('p1', 'publishers').get('3')).toBe('Publisher 3')
  })

  it('brings a long mirror over in slices, so no one answer blocks the page for long, and keeps every row in order', async () => {
    const { api } = fakeApi()
    const all = rows(1, 12_345)
    const asked: Array<{ offset?: number; limit?: number }> = []
    api.entities.mirror.mockImplementation(((request: { offset?: number; limit?: number }) => {
      asked.push(request)
      const offset = request.offset ?? 0
      const slice = all.slice(offset, request.limit === undefined ? undefined : offset + request.limit)
      return Promise.resolve({ ok: true, value: { rows: slice, syncedAt: '2026-01-01T00:00:00.000Z', total: all.length } })
    }) as unknown as typeof api.entities.mirror)
    const store = useEntitiesStore()
    await store.open('p1', 'publishers')
    const state = store.peek('p1', 'publishers')
    expect(state.rows.map((row) => row.id)).toEqual(all.map((row) => row.id))
    expect(state.pendingTotal).toBeNull()
    expect(asked.length).toBeGreaterThan(2)
    for (const request of asked) expect(request.limit).toBeLessThanOrEqual(5_000)
  })

  it('shows the rest of a long mirror in steps, not once per slice, and never changes a list once shown', async () => {
    const { api } = fakeApi()
    const all = rows(1, 23_456)
    let answers = 0
    api.entities.mirror.mockImplementation(((request: { offset?: number; limit?: number }) => {
      answers++
      const offset = request.offset ?? 0
      const slice = all.slice(offset, request.limit === undefined ? undefined : offset + request.limit)
      return Promise.resolve({ ok: true, value: { rows: slice, syncedAt: '2026-01-01T00:00:00.000Z', total: all.length } })
    }) as unknown as typeof api.entities.mirror)
    const store = useEntitiesStore()
    const shown: Array<{ list: readonly Entity[]; length: number }> = []
    const state = store.state('p1', 'publishers')
    watch(
      () => state.rows,
      (list) => shown.push({ list, length: list.length }),
      { flush: 'sync' },
    )
    // A clock that stands still: every answer comes within the time the list shown waits to grow.
    const clock = vi.spyOn(performance, 'now').mockReturnValue(1_000)
    try {
      await store.open('p1', 'publishers')
    } finally {
      clock.mockRestore()
    }
    expect(state.rows.map((row) => row.id)).toEqual(all.map((row) => row.id))
    // Answers this quick are shown together: each list shown is a copy the table checks and searches again.
    expect(answers).toBeGreaterThan(4)
    expect(shown.length).toBeLessThan(answers)
    // The table keeps caches by list: a list once shown keeps its rows.
    for (const { list, length } of shown) expect(list).toHaveLength(length)
  })

  it('goes offline on a network error and keeps the mirror', async () => {
    const { api } = fakeApi()
    api.entities.mirror.mockImplementation(() => Promise.resolve({ ok: true, value: { rows: rows(1, 3), syncedAt: '2026-01-01T00:00:00.000Z' } }))
    api.entities.sync.mockImplementation(() => Promise.resolve({ ok: false, error: { code: 'network', message: 'The platform is unreachable.' } }))
    const store = useEntitiesStore()
    const connectivity = useConnectivityStore()
    await store.open('p1', 'publishers')
    expect(api.entities.sync).not.toHaveBeenCalled()
    await store.sync('p1', 'publishers')
    expect(connectivity.offline['p1']?.reason).toBe('The platform is unreachable.')
    expect(store.peek('p1', 'publishers').rows).toHaveLength(3)

    api.entities.sync.mockImplementation(() => Promise.resolve({ ok: true, value: { count: 0, syncedAt: '2026-03-03T00:00:00.000Z' } }))
    await store.sync('p1', 'publishers')
    expect(connectivity.offline['p1']).toBeUndefined()
  })

  it('puts a kind in read-only mode on a 403, and notes a rate limit', async () => {
    const { api } = fakeApi()
    api.entities.delete.mockImplementation(() => Promise.resolve({ ok: false, error: { code: 'forbidden', message: 'You may not.' } }))
    const store = useEntitiesStore()
    const connectivity = useConnectivityStore()
    await expect(store.remove('p1', 'brands', 3)).rejects.toMatchObject({ code: 'forbidden' })
    expect(store.peek('p1', 'brands').readOnly).toBe('You may not.')
    expect(store.peek('p1', 'publishers').readOnly).toBeNull()

    api.entities.delete.mockImplementation(() =>
      Promise.resolve({ ok: false, error: { code: 'throttled', message: 'Slow down.', details: { retryAfterSeconds: 7 } } }),
    )
    await expect(store.remove('p1', 'publishers', 3)).rejects.toMatchObject({ code: 'throttled' })
    expect(connectivity.throttledFor('p1')).toBe(7)
  })
})
