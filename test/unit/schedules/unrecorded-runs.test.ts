/**
 * A run whose lock or ledger line cannot be written (a full disk, a read-only data folder, a
 * `locks` path that is a file) is the slot's outcome: kept in memory, reported, backed off. It
 * never rejects and is never run again in a loop (the review's H2: 757 exports in 57 s).
 */
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { STORAGE_BACKOFF } from '../../../main/services/schedules/slot-memory'
import { createHarness, draftWithFolder, type Harness } from './support'

const open: Harness[] = []
afterEach(() => {
  for (const made of open.splice(0)) made.service.stop()
})

/** What a full disk or a file-size limit does to every append: EFBIG; reading still works. */
const fullDiskFs = {
  ...fs,
  appendFile: async (): Promise<void> => {
    throw Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG' })
  },
}

async function everyMinute(extra: Parameters<typeof createHarness>[1] = {}) {
  const warnings: string[] = []
  const made = await createHarness('2026-11-26T06:59:30.000Z', { log: { warn: (message) => void warnings.push(message) }, ...extra })
  open.push(made)
  const saved = await made.service.save(await draftWithFolder(made, { cadence: { kind: 'cron', expression: '* * * * *' } }))
  return { made, saved, warnings }
}

describe('a run that cannot be recorded', () => {
  it('with the ledger unable to grow, one slot sends ONE export across a minute and a bit, is reported, and is backed off', { timeout: 10_000 }, async () => {
    const { made, warnings } = await everyMinute({ ledgerFs: fullDiskFs })
    await made.service.start()
    await made.clock.advanceTo('2026-11-26T07:01:10.000Z', () => made.service.idle())

    // The platform was asked once: the 07:00 slot; the 07:01 slot is backed off, not retried at once.
    expect(made.exports).toHaveLength(1)
    // Reported as a failed run: the notification, the badge, the run event and the log.
    expect(made.notifications).toHaveLength(1)
    expect(made.notifications[0]).toMatchObject({ title: 'Schedule failed: Morning file', failed: true })
    const body = made.notifications[0]?.body ?? ''
    expect(body).toMatch(/could not be written to the run ledger/)
    expect(body).toMatch(/disk is full/)
    expect(body).not.toContain(made.folder)
    expect(made.ran.map((entry) => [entry.plannedAt, entry.outcome])).toEqual([['2026-11-26T07:00:00.000Z', 'failed']])
    expect(warnings.some((warning) => /ledger/.test(warning))).toBe(true)
    const state = await made.service.list()
    expect(state.failureCount).toBe(1)
    expect(state.schedules[0]?.lastRun).toMatchObject({ plannedAt: '2026-11-26T07:00:00.000Z', outcome: 'failed' })

    // Backed off, not given up: the first slot after the backoff runs, then the wait doubles.
    const again = new Date(Date.parse('2026-11-26T07:00:00.000Z') + STORAGE_BACKOFF.firstMs + 60_000).toISOString()
    await made.clock.advanceTo(again, () => made.service.idle())
    expect(made.exports).toHaveLength(2)
    const beforeDoubled = new Date(Date.parse(again) + STORAGE_BACKOFF.firstMs * 2 - 2 * 60_000).toISOString()
    await made.clock.advanceTo(beforeDoubled, () => made.service.idle())
    expect(made.exports).toHaveLength(2)
  })

  it(
    'with a `locks` path that is a regular file, the run does not reject, calls no platform, fails with a sentence and is backed off',
    { timeout: 10_000 },
    async () => {
      const rejections: unknown[] = []
      const onRejection = (reason: unknown) => void rejections.push(reason)
      process.on('unhandledRejection', onRejection)
      try {
        const { made, saved } = await everyMinute()
        await fs.mkdir(made.folder, { recursive: true })
        await fs.writeFile(path.join(made.folder, 'locks'), 'not a folder')
        await made.service.start()
        await made.clock.advanceTo('2026-11-26T07:01:10.000Z', () => made.service.idle())

        expect(made.exports).toHaveLength(0)
        const entries = (await made.service.ledger({})).entries
        expect(entries.map((entry) => [entry.plannedAt, entry.outcome])).toEqual([['2026-11-26T07:00:00.000Z', 'failed']])
        expect(entries[0]?.error).toMatch(/^This run did not start: AdOps Desk could not take the schedule's run lock in its data folder/)
        expect(entries[0]?.error).not.toContain(made.folder)
        expect(made.notifications).toHaveLength(1)

        // Run now answers the same sentence instead of rejecting.
        const manual = await made.service.runNow(saved.id)
        expect(manual).toMatchObject({ outcome: 'failed', trigger: 'manual', attempts: 0 })
        // Let any stray promise settle before looking for unhandled rejections.
        await new Promise((resolve) => setImmediate(resolve))
        expect(rejections).toEqual([])
      } finally {
        process.off('unhandledRejection', onRejection)
      }
    },
  )
})
