// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import type { EventPayload, ExportJob, Outcome } from '@contract'
import { useExportsStore } from '../../../../renderer/src/stores/exports'

const ok = <T>(value: T): Promise<Outcome<T>> => Promise.resolve({ ok: true, value })

const job = (change: Partial<ExportJob> = {}): ExportJob => ({
  id: 'job-1',
  profileId: 'p1',
  preset: null,
  project: 'demo',
  report: 'supply',
  format: 'csv',
  fileName: 'demo-supply.csv',
  folderName: 'exports',
  state: 'queued',
  createdAt: '2026-02-05T08:00:00.000Z',
  startedAt: null,
  endedAt: null,
  bytes: 0,
  rows: null,
  durationMs: null,
  capped: null,
  notes: [],
  error: null,
  ...change,
})

/** A bridge whose events the test fires by hand. */
function fakeApi(jobs: ExportJob[]) {
  const listeners: { progress?: (payload: EventPayload<'onExportProgress'>) => void; done?: (payload: ExportJob) => void } = {}
  const api = {
    exports: {
      list: vi.fn(() => ok({ jobs })),
      start: vi.fn((): Promise<Outcome<{ jobId: string; fileName: string } | null>> => ok({ jobId: 'job-2', fileName: 'two.csv' })),
      cancel: vi.fn(() => ok({ cancelled: true })),
    },
    onExportProgress: vi.fn((listener: typeof listeners.progress) => ((listeners.progress = listener), () => undefined)),
    onExportDone: vi.fn((listener: typeof listeners.done) => ((listeners.done = listener), () => undefined)),
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return { api, listeners }
}

const progress = (change: Partial<EventPayload<'onExportProgress'>> = {}): EventPayload<'onExportProgress'> => ({
  jobId: 'job-1',
  state: 'running',
  bytes: 4096,
  rows: 53,
  bytesPerSecond: 8192,
  elapsedMs: 500,
  ...change,
})

describe('exports store', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('lists once, then follows progress and the end of a job', async () => {
    const { api, listeners } = fakeApi([job(), job({ id: 'old', state: 'interrupted', error: 'AdOps Desk quit while this export was running.' })])
    const store = useExportsStore()
    await store.listen()
    await store.listen()
    expect(api.exports.list).toHaveBeenCalledTimes(1)
    expect(store.running).toBe(1)
    expect(store.shown.find((shown) => shown.id === 'old')?.state).toBe('interrupted')

    listeners.progress?.(progress())
    expect(store.shown[0]).toMatchObject({ state: 'running', bytes: 4096, rows: 53, bytesPerSecond: 8192, elapsedMs: 500 })

    listeners.done?.(job({ state: 'done', bytes: 9000, rows: 120, durationMs: 1200, capped: false }))
    expect(store.running).toBe(0)
    expect(store.shown[0]).toMatchObject({ state: 'done', bytes: 9000, rows: 120, bytesPerSecond: 0, elapsedMs: 1200 })
  })

  it('asks for the list again when a job it has not seen moves (started elsewhere)', async () => {
    const { api, listeners } = fakeApi([])
    const store = useExportsStore()
    await store.listen()
    api.exports.list.mockImplementation(() => ok({ jobs: [job({ id: 'elsewhere', state: 'running' })] }))
    listeners.progress?.(progress({ jobId: 'elsewhere' }))
    listeners.progress?.(progress({ jobId: 'elsewhere', bytes: 8192 }))
    await vi.waitFor(() => expect(store.shown).toHaveLength(1))
    expect(api.exports.list).toHaveBeenCalledTimes(2)
    expect(store.shown[0]).toMatchObject({ id: 'elsewhere', bytes: 8192 })
  })

  it('keeps a job ended when a list answered before its end, or a late progress event, arrives after its done event', async () => {
    const { api, listeners } = fakeApi([])
    const store = useExportsStore()
    await store.listen()
    // The list call goes out while the job runs; its answer comes back after the done event.
    let answer: (jobs: ExportJob[]) => void = () => undefined
    api.exports.list.mockImplementation(() => new Promise((resolve) => (answer = (jobs) => resolve({ ok: true, value: { jobs } }))))
    const started = store.start('p1', { kind: 'preset', name: 'Weekly' }, { format: 'tsv' })
    await vi.waitFor(() => expect(api.exports.list).toHaveBeenCalledTimes(2))
    listeners.done?.(job({ id: 'job-2', state: 'done', bytes: 157, rows: 7, durationMs: 46 }))
    answer([job({ id: 'job-2', state: 'running' })])
    await started
    expect(store.shown).toHaveLength(1)
    expect(store.shown[0]).toMatchObject({ id: 'job-2', state: 'done', bytes: 157 })
    listeners.progress?.(progress({ jobId: 'job-2', bytes: 100 }))
    expect(store.shown[0]).toMatchObject({ state: 'done', bytes: 157 })
    expect(store.running).toBe(0)
  })

  it('starts a job with the rows the estimate expects; a closed save dialog starts nothing', async () => {
    const { api } = fakeApi([])
    const store = useExportsStore()
    const source = { kind: 'preset' as const, name: 'Weekly' }
    expect(await store.start('p1', source, { format: 'csv' }, 1_000)).toEqual({ jobId: 'job-2', fileName: 'two.csv' })
    expect(store.expected['job-2']).toBe(1_000)
    api.exports.start.mockImplementation(() => ok(null))
    expect(await store.start('p1', source, { format: 'csv' }, 5)).toBeNull()
    expect(api.exports.start).toHaveBeenLastCalledWith({ profileId: 'p1', source, options: { format: 'csv' } })
  })

  it('opens the dialog for a source and closes it', () => {
    fakeApi([])
    const store = useExportsStore()
    store.openDialog({ kind: 'preset', name: 'Weekly' })
    expect(store.dialogSource).toEqual({ kind: 'preset', name: 'Weekly' })
    store.closeDialog()
    expect(store.dialogSource).toBeNull()
  })
})
