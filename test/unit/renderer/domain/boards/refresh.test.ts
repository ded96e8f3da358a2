import { describe, expect, it } from 'vitest'
import { refreshTiles, type TileRefreshState } from '../../../../../renderer/src/domain/boards/refresh'

/** A run per tile that the test settles by hand, so the order of events is the test's, not a timer's. */
function fakeRuns() {
  const pending = new Map<string, { resolve: () => void; reject: (error: unknown) => void }>()
  let running = 0
  let most = 0
  const started: string[] = []
  const run = (id: string) =>
    new Promise<void>((resolve, reject) => {
      started.push(id)
      running += 1
      most = Math.max(most, running)
      const done = () => (running -= 1)
      pending.set(id, {
        resolve: () => (done(), resolve()),
        reject: (error) => (done(), reject(error)),
      })
    })
  return { run, pending, started, most: () => most }
}

// A macrotask: every promise the refresh chained has run by then (the renderer's types have no setImmediate).
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function recorder() {
  const states = new Map<string, TileRefreshState[]>()
  return { onState: (id: string, state: TileRefreshState) => states.set(id, [...(states.get(id) ?? []), state]), states }
}

describe('refreshing a board', () => {
  it('runs at most the concurrency at once (clamped to 2–4) and every tile once', async () => {
    const runs = fakeRuns()
    const { onState, states } = recorder()
    const ids = ['a', 'b', 'c', 'd', 'e', 'f']
    const done = refreshTiles({ ids, concurrency: 9, run: runs.run, onState, wait: async () => {}, signal: new AbortController().signal })
    for (let round = 0; round < 6; round += 1) {
      await settle()
      for (const [id, control] of runs.pending) {
        runs.pending.delete(id)
        control.resolve()
        break
      }
    }
    await done
    expect(runs.most()).toBe(4)
    expect(runs.started).toEqual(ids)
    expect(ids.map((id) => states.get(id)?.at(-1)?.status)).toEqual(['done', 'done', 'done', 'done', 'done', 'done'])
  })

  it('pauses every worker for the wait a 429 asks for, then tries the same tile again', async () => {
    const runs = fakeRuns()
    const { onState, states } = recorder()
    const waits: number[] = []
    let endWait = () => {}
    const wait = (milliseconds: number) => {
      waits.push(milliseconds)
      return new Promise<void>((resolve) => (endWait = resolve))
    }
    const done = refreshTiles({ ids: ['a', 'b', 'c'], concurrency: 2, run: runs.run, onState, wait, signal: new AbortController().signal })
    await settle()
    expect(runs.started).toEqual(['a', 'b'])
    runs.pending.get('a')?.reject({ code: 'throttled', message: 'Too many requests', details: { retryAfterSeconds: 7 } })
    runs.pending.delete('a')
    runs.pending.get('b')?.resolve()
    runs.pending.delete('b')
    await settle()
    // Nothing new starts while the platform's wait runs.
    expect(waits).toEqual([7000])
    expect(runs.started).toEqual(['a', 'b'])
    endWait()
    await settle()
    expect(runs.started).toEqual(['a', 'b', 'a', 'c'])
    runs.pending.get('a')?.resolve()
    runs.pending.get('c')?.resolve()
    await done
    expect(states.get('a')?.map((state) => state.status)).toEqual(['waiting', 'running', 'waiting', 'running', 'done'])
  })

  it('reports a failed tile with its sentence and goes on with the others', async () => {
    const { onState, states } = recorder()
    const run = async (id: string) => {
      if (id === 'b') throw { code: 'server', message: 'The reporting service failed. Try again later.' }
    }
    await refreshTiles({ ids: ['a', 'b', 'c'], concurrency: 2, run, onState, wait: async () => {}, signal: new AbortController().signal })
    expect(['a', 'b', 'c'].map((id) => states.get(id)?.at(-1))).toEqual([
      { status: 'done', error: null },
      { status: 'error', error: 'The reporting service failed. Try again later.' },
      { status: 'done', error: null },
    ])
  })

  it('cancel: the running tiles get the aborted signal, the waiting ones never start', async () => {
    const runs = fakeRuns()
    const { onState, states } = recorder()
    const controller = new AbortController()
    const signals: AbortSignal[] = []
    const run = (id: string, signal: AbortSignal) => (signals.push(signal), runs.run(id))
    const done = refreshTiles({ ids: ['a', 'b', 'c', 'd'], concurrency: 2, run, onState, wait: async () => {}, signal: controller.signal })
    await settle()
    controller.abort()
    expect(signals.every((signal) => signal.aborted)).toBe(true)
    runs.pending.get('a')?.reject({ code: 'cancelled', message: 'Cancelled' })
    runs.pending.get('b')?.reject({ code: 'cancelled', message: 'Cancelled' })
    await done
    expect(runs.started).toEqual(['a', 'b'])
    expect(['a', 'b', 'c', 'd'].map((id) => states.get(id)?.at(-1)?.status)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled'])
  })
})
