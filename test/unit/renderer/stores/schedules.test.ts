// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import type { LedgerEntry } from '../../../../preload/contract'
import { useSchedulesStore } from '../../../../renderer/src/stores/schedules'

type RunListener = (event: { entry: LedgerEntry; failureCount: number }) => void

const entry = (id: string, scheduleId = 's1'): LedgerEntry => ({
  id,
  scheduleId,
  scheduleName: 'Morning',
  target: { kind: 'preset', name: 'Weekly' },
  source: 'app',
  trigger: 'schedule',
  plannedAt: '2026-11-26T07:30:00Z',
  startedAt: '2026-11-26T07:30:01Z',
  durationMs: 400,
  outcome: 'failed',
  late: false,
  fileName: null,
  alertsFired: null,
  missingTiles: null,
  error: 'The folder is gone: choose another.',
  attempts: 1,
})

/** A stand-in window.api: ledger answers are held until the test releases them, in any order. */
function fakeApi() {
  const asked: Array<{ query: Record<string, unknown>; answer: (entries: LedgerEntry[]) => void }> = []
  const listeners: RunListener[] = []
  const api = {
    schedules: {
      list: async () => ({
        ok: true,
        value: {
          schedules: [{ id: 's1', lastRun: null }],
          osEntry: { kind: null, installed: false, lastRunAt: null, problem: null },
          failureCount: 2,
          keepRunningInBackground: false,
          backgroundSupported: false,
        },
      }),
      ledger: (query: Record<string, unknown>) =>
        new Promise((resolve) => asked.push({ query, answer: (entries) => resolve({ ok: true, value: { total: entries.length, entries } }) })),
      clearFailures: async () => ({ ok: true, value: { failureCount: 0 } }),
    },
    onScheduleRun: (listener: RunListener) => {
      listeners.push(listener)
      return () => undefined
    },
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return { asked, announce: (event: Parameters<RunListener>[0]) => listeners.forEach((listener) => listener(event)) }
}

describe('schedules store', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('asks the ledger with the filters, and the newest query wins over an older answer', async () => {
    const { asked } = fakeApi()
    const store = useSchedulesStore()
    store.filters.outcome = 'failed'
    const first = store.loadLedger()
    store.filters.search = 'folder'
    const second = store.loadLedger()
    expect(asked.map((call) => call.query)).toEqual([
      { outcome: 'failed', offset: 0, limit: 100 },
      { outcome: 'failed', search: 'folder', offset: 0, limit: 100 },
    ])
    asked[1]?.answer([entry('new')])
    await second
    asked[0]?.answer([entry('old')])
    await first
    expect(store.entries.map((line) => line.id)).toEqual(['new'])
    expect(store.ledgerLoading).toBe(false)
  })

  it("follows runs: the badge count, the schedule's last run, and clearing the failures", async () => {
    const { announce, asked } = fakeApi()
    const store = useSchedulesStore()
    store.listen()
    await store.load()
    expect(store.failureCount).toBe(2)
    announce({ entry: entry('r1'), failureCount: 3 })
    expect(store.failureCount).toBe(3)
    expect(store.schedules[0]?.lastRun?.id).toBe('r1')
    // A line the ledger does not show yet asks for it again.
    expect(asked).toHaveLength(1)
    await store.clearFailures()
    expect(store.failureCount).toBe(0)
  })
})
