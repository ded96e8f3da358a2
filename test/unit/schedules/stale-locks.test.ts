/**
 * A lock names its holder by pid, process start and boot (the review's L1: a pid reused after a
 * crash and a reboot blocked its schedule for good), and a lock older than the run limit is stale
 * whatever its pid. A lock file is read bounded, never followed through a symlink, and a slot
 * skipped because a live run holds its lock is a ledger line.
 */
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRunLocks, RUN_LIMIT_MS, type ProcessIdentity } from '../../../main/services/schedules/run-lock'
import { temporaryFolder } from '../../support/services'
import { createHarness, draftWithFolder, type Harness } from './support'

const now = () => new Date('2026-11-26T07:00:00.000Z')

/** A system whose answers a test sets: which process started when, and the boot's id. */
function fakeIdentity(starts: Record<number, string>, boot = 'boot-1'): ProcessIdentity & { boot: string; starts: Record<number, string> } {
  const identity = {
    boot,
    starts,
    startOf: async (pid: number) => identity.starts[pid] ?? null,
    bootId: async () => identity.boot,
  }
  return identity
}

describe('stale run locks', () => {
  it('takes over a lock whose pid now belongs to another process (another start time), and keeps one whose holder is the same', async () => {
    const folder = await temporaryFolder()
    const identity = fakeIdentity({ 500: 'start-A' })
    const holder = createRunLocks({ folder, pid: 500, now, isAlive: () => true, identity })
    const other = createRunLocks({ folder, pid: 600, now, isAlive: () => true, identity })
    expect(await holder.acquire('s')).not.toBeNull()
    expect(JSON.parse(await fs.readFile(path.join(folder, 's.lock'), 'utf8'))).toEqual({
      pid: 500,
      startedAt: '2026-11-26T07:00:00.000Z',
      processStart: 'start-A',
      bootId: 'boot-1',
    })
    // Same process, same start: still held.
    expect(await other.acquire('s')).toBeNull()
    expect(await other.held('s')).toBe(true)
    // The holder crashed; pid 500 was given to another process, which started later.
    identity.starts[500] = 'start-B'
    expect(await other.held('s')).toBe(false)
    expect(await other.acquire('s')).not.toBeNull()
  })

  it('takes over a lock from before a reboot (another boot id)', async () => {
    const folder = await temporaryFolder()
    const identity = fakeIdentity({ 500: 'start-A' })
    expect(await createRunLocks({ folder, pid: 500, now, isAlive: () => true, identity }).acquire('s')).not.toBeNull()
    identity.boot = 'boot-2'
    expect(await createRunLocks({ folder, pid: 600, now, isAlive: () => true, identity }).acquire('s')).not.toBeNull()
  })

  it('reads an older lock (pid and startedAt only): its pid alive, it is stale once older than the run limit', async () => {
    const folder = await temporaryFolder()
    const locks = createRunLocks({ folder, pid: 600, now, isAlive: () => true, identity: fakeIdentity({}) })
    const recent = new Date(now().getTime() - RUN_LIMIT_MS + 60_000).toISOString()
    await fs.writeFile(path.join(folder, 'young.lock'), JSON.stringify({ pid: 1, startedAt: recent }))
    expect(await locks.acquire('young')).toBeNull()
    // The review's lock: pid 1 (always alive), from 2020.
    await fs.writeFile(path.join(folder, 'old.lock'), JSON.stringify({ pid: 1, startedAt: '2020-01-01T00:00:00.000Z' }))
    expect(await locks.held('old')).toBe(false)
    expect(await locks.acquire('old')).not.toBeNull()
  })

  it.runIf(process.platform === 'linux')("on Linux, reads a live process's start from /proc: a lock naming this pid with another start is stale", async () => {
    const folder = await temporaryFolder()
    const mine = createRunLocks({ folder, pid: process.pid, now })
    const other = createRunLocks({ folder, pid: 600, now })
    const held = await mine.acquire('s')
    const written = JSON.parse(await fs.readFile(path.join(folder, 's.lock'), 'utf8')) as Record<string, unknown>
    expect(written).toMatchObject({ pid: process.pid, processStart: expect.stringMatching(/^\d+$/), bootId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    expect(await other.acquire('s')).toBeNull()
    await held?.release()
    await fs.writeFile(path.join(folder, 's.lock'), JSON.stringify({ ...written, processStart: '1' }))
    expect(await other.acquire('s')).not.toBeNull()
  })

  it.runIf(process.platform !== 'win32')(
    'reads a lock file bounded and never through a symlink: a lock that is a symlink to /dev/zero is stale at once',
    { timeout: 5_000 },
    async () => {
      const folder = await temporaryFolder()
      const file = path.join(folder, 's.lock')
      await fs.symlink('/dev/zero', file)
      const locks = createRunLocks({ folder, pid: 600, now, isAlive: () => true })
      expect(await locks.held('s')).toBe(false)
      const taken = await locks.acquire('s')
      expect(taken).not.toBeNull()
      // The symlink was moved aside and removed, not followed: the lock is now a file of ours.
      expect((await fs.lstat(file)).isFile()).toBe(true)
      expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ pid: 600 })
    },
  )
})

describe('a slot skipped because a live run holds its lock', () => {
  const open: Harness[] = []
  afterEach(() => {
    for (const made of open.splice(0)) made.service.stop()
  })

  it('is a ledger line (skipped, with the reason), and run-due answers it', async () => {
    const made = await createHarness('2026-11-26T07:00:00.000Z', { isAlive: (pid) => pid === 4242 || pid === 5151 })
    open.push(made)
    const saved = await made.service.save(await draftWithFolder(made, { cadence: { kind: 'cron', expression: '* * * * *' } }))
    // Another live process (pid 5151) holds the lock, taken a minute ago.
    const lockFile = path.join(made.folder, 'locks', `${encodeURIComponent(saved.id)}.lock`)
    await fs.mkdir(path.dirname(lockFile), { recursive: true })
    await fs.writeFile(lockFile, JSON.stringify({ pid: 5151, startedAt: '2026-11-26T07:00:00.000Z' }))
    made.clock.jump('2026-11-26T07:01:00.000Z')

    const entries = await made.service.runDue()
    expect(entries).toEqual([
      expect.objectContaining({ outcome: 'skipped', plannedAt: '2026-11-26T07:01:00.000Z', attempts: 0, error: expect.stringMatching(/still going/) }),
    ])
    expect((await made.service.ledger({})).entries.map((entry) => [entry.plannedAt, entry.outcome])).toEqual([['2026-11-26T07:01:00.000Z', 'skipped']])
    expect(made.exports).toHaveLength(0)
  })
})
