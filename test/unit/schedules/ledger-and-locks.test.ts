import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LedgerEntry } from '@contract'
import { createLedger } from '../../../main/services/schedules/ledger'
import { createRunLocks } from '../../../main/services/schedules/run-lock'
import { temporaryFolder } from '../../support/services'

const entry = (index: number, change: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: `run-${index}`,
  scheduleId: 'schedule-1',
  scheduleName: 'Morning file',
  target: { kind: 'preset', name: 'Monday revenue' },
  source: 'app',
  trigger: 'schedule',
  plannedAt: new Date(Date.UTC(2026, 10, 1, 7) + index * 86_400_000).toISOString(),
  startedAt: new Date(Date.UTC(2026, 10, 1, 7) + index * 86_400_000).toISOString(),
  durationMs: 1200,
  outcome: 'ok',
  late: false,
  fileName: `file ${index}.csv`,
  alertsFired: null,
  missingTiles: null,
  error: null,
  attempts: 1,
  ...change,
})

describe('the run ledger', () => {
  it('tolerates a torn last line and keeps appending after it', async () => {
    const folder = await temporaryFolder()
    const ledger = createLedger({ folder })
    await ledger.append(entry(1))
    // The process died mid-write: half a line, no newline.
    await fs.appendFile(path.join(folder, 'ledger.jsonl'), JSON.stringify(entry(2)).slice(0, 40))
    await ledger.append(entry(3))
    expect((await ledger.all()).map((line) => line.id)).toEqual(['run-1', 'run-3'])
  })

  it('is bounded: past its size it rotates once, keeping at most two files', async () => {
    const folder = await temporaryFolder()
    const ledger = createLedger({ folder, maxBytes: 2_000 })
    for (let index = 0; index < 40; index += 1) await ledger.append(entry(index))
    const files = (await fs.readdir(folder)).sort()
    expect(files).toEqual(['ledger.1.jsonl', 'ledger.jsonl'])
    for (const file of files) expect((await fs.stat(path.join(folder, file))).size).toBeLessThan(2_000 + 1_000)
    const kept = await ledger.all()
    expect(kept.length).toBeLessThan(40)
    expect(kept.at(-1)?.id).toBe('run-39')
  })

  it('searches and filters, newest first, one bounded page at a time', async () => {
    const folder = await temporaryFolder()
    const ledger = createLedger({ folder })
    await ledger.append(entry(1))
    await ledger.append(entry(2, { outcome: 'failed', error: 'The folder Reports is gone.', fileName: null }))
    await ledger.append(entry(3, { source: 'os', late: true }))
    expect((await ledger.query({ search: 'reports is GONE' })).entries.map((line) => line.id)).toEqual(['run-2'])
    expect((await ledger.query({ source: 'os', late: true })).entries.map((line) => line.id)).toEqual(['run-3'])
    expect(await ledger.query({ limit: 1, offset: 1 })).toMatchObject({ total: 3, entries: [{ id: 'run-2' }] })
  })
})

describe('run locks', () => {
  const now = () => new Date('2026-11-26T07:00:00.000Z')

  it('one holder at a time across processes; a dead holder is taken over', async () => {
    const folder = await temporaryFolder()
    const alive = new Set([100, 200])
    const app = createRunLocks({ folder, pid: 100, now, isAlive: (pid) => alive.has(pid) })
    const os = createRunLocks({ folder, pid: 200, now, isAlive: (pid) => alive.has(pid) })
    const held = await app.acquire('s')
    expect(held).not.toBeNull()
    expect(await os.acquire('s')).toBeNull()
    expect(await app.acquire('s')).toBeNull()
    expect(await os.held('s')).toBe(true)
    // The app crashed holding it.
    alive.delete(100)
    const taken = await os.acquire('s')
    expect(taken).not.toBeNull()
    expect(JSON.parse(await fs.readFile(path.join(folder, 's.lock'), 'utf8'))).toMatchObject({ pid: 200, startedAt: '2026-11-26T07:00:00.000Z' })
    // The old holder's release does not remove the new holder's lock.
    await held?.release()
    expect(await os.held('s')).toBe(true)
    await taken?.release()
    expect(await os.held('s')).toBe(false)
  })

  it('takes over a lock file cut short (its holder died while writing it)', async () => {
    const folder = await temporaryFolder()
    await fs.writeFile(path.join(folder, 's.lock'), '{"pid": 12')
    const locks = createRunLocks({ folder, pid: 300, now, isAlive: () => true })
    expect(await locks.acquire('s')).not.toBeNull()
  })
})
