import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, draftWithFolder, FakeClock, type Harness } from './support'

const open: Harness[] = []
async function harness(...args: Parameters<typeof createHarness>): Promise<Harness> {
  const made = await createHarness(...args)
  open.push(made)
  return made
}
afterEach(() => {
  for (const made of open.splice(0)) made.service.stop()
})

const ledger = async (made: Harness) => (await made.service.ledger({})).entries.reverse()

describe('the scheduler, driven by a fake clock', () => {
  it('runs a daily schedule at its slot, once, with one timer armed to it', async () => {
    const made = await harness('2026-11-26T06:00:00.000Z')
    await made.service.save(await draftWithFolder(made))
    await made.service.start()
    await made.service.idle()
    expect(await ledger(made)).toEqual([])
    // One hour to 07:00: the timer waits for the slot itself.
    expect(made.clock.armed.at(-1)).toBe(60 * 60 * 1000)

    await made.clock.advanceTo('2026-11-26T07:30:00.000Z', () => made.service.idle())
    const entries = await ledger(made)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      outcome: 'ok',
      source: 'app',
      trigger: 'schedule',
      plannedAt: '2026-11-26T07:00:00.000Z',
      startedAt: '2026-11-26T07:00:00.000Z',
      late: false,
      fileName: 'Monday revenue 2026-11-19 to 2026-11-25.csv',
      error: null,
      attempts: 1,
    })
    // The file is where the folder dialog said, named by the pattern with the dates the run resolved.
    expect(await fs.readdir(made.exportFolder)).toEqual(['Monday revenue 2026-11-19 to 2026-11-25.csv'])
    const listed = (await made.service.list()).schedules[0]
    expect(listed?.nextRunAt).toBe('2026-11-27T07:00:00.000Z')
    expect(listed?.lastRun?.outcome).toBe('ok')
  })

  it('runs slots missed while the machine slept ONCE after wake, marked late with both times', async () => {
    const made = await harness('2026-11-26T06:00:00.000Z')
    await made.service.save(await draftWithFolder(made))
    await made.service.start()
    await made.service.idle()

    // Asleep for three days: no timer fires; the slots of the 26th, 27th and 28th pass.
    made.clock.jump('2026-11-29T06:30:00.000Z')
    await made.service.wake()
    await made.service.idle()
    const entries = await ledger(made)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ plannedAt: '2026-11-28T07:00:00.000Z', startedAt: '2026-11-29T06:30:00.000Z', late: true, outcome: 'ok' })

    // Another wake, and the day's own slot: nothing twice.
    await made.service.wake()
    await made.clock.advanceTo('2026-11-29T07:05:00.000Z', () => made.service.idle())
    expect((await ledger(made)).map((entry) => [entry.plannedAt, entry.late])).toEqual([
      ['2026-11-28T07:00:00.000Z', true],
      ['2026-11-29T07:00:00.000Z', false],
    ])
  })

  it('runs a slot missed while the app was closed once at the next start, from the ledger on disk', async () => {
    const first = await harness('2026-11-26T06:00:00.000Z')
    await first.service.save(await draftWithFolder(first))
    await first.service.start()
    await first.clock.advanceTo('2026-11-26T07:01:00.000Z', () => first.service.idle())
    first.service.stop()

    // The app was closed for two days, then started again on the same data folder.
    const clock = new FakeClock('2026-11-28T12:00:00.000Z')
    const again = await harness('2026-11-28T12:00:00.000Z', { folder: first.folder, clock })
    await again.service.start()
    await again.service.idle()
    expect((await ledger(again)).map((entry) => [entry.plannedAt, entry.late])).toEqual([
      ['2026-11-26T07:00:00.000Z', false],
      ['2026-11-28T07:00:00.000Z', true],
    ])
  })

  it('does not count slots from before the schedule existed as missed', async () => {
    const made = await harness('2026-11-26T09:00:00.000Z')
    await made.service.save(await draftWithFolder(made))
    await made.service.start()
    await made.service.idle()
    expect(await ledger(made)).toEqual([])
  })

  it('refuses an overlapping run: Run now while the scheduled run is going is skipped, with a sentence', async () => {
    const made = await harness('2026-11-26T06:59:00.000Z')
    const saved = await made.service.save(await draftWithFolder(made))
    let open!: () => void
    made.exportBehaviour.gate = new Promise<void>((resolve) => (open = resolve))
    await made.service.start()
    made.clock.jump('2026-11-26T07:00:00.000Z')
    void made.service.wake()
    // The scheduled run has asked for its file and waits on the gate.
    await expect.poll(() => made.exports.length).toBe(1)
    const refused = await made.service.runNow(saved.id)
    expect(refused).toMatchObject({ outcome: 'skipped', trigger: 'manual', attempts: 0 })
    expect(refused.error).toMatch(/still going/)
    open()
    await made.service.idle()
    expect((await ledger(made)).map((entry) => entry.outcome).sort()).toEqual(['ok', 'skipped'])
    expect(made.exports).toHaveLength(1)
  })

  it('leaves a slot to the other process holding the lock (the OS entry), and takes over a stale lock', async () => {
    const made = await harness('2026-11-26T07:00:00.000Z')
    const saved = await made.service.save(await draftWithFolder(made, { cadence: { kind: 'daily', at: '06:59' } }))
    // A slot is only missed after the schedule existed: the next one is tomorrow; Run now checks the lock directly.
    const lockFile = path.join(made.folder, 'locks', `${encodeURIComponent(saved.id)}.lock`)
    await fs.mkdir(path.dirname(lockFile), { recursive: true })
    await fs.writeFile(lockFile, JSON.stringify({ pid: 777, startedAt: '2026-11-26T06:59:00.000Z' }))

    // pid 777 is not alive (the harness's isAlive knows only its own pid): the lock is stale and taken over.
    const entry = await made.service.runNow(saved.id)
    expect(entry.outcome).toBe('ok')
    await expect(fs.access(lockFile)).rejects.toThrow()
  })

  it('tries network failures again a bounded number of times with backoff, then fails with a sentence, notifies and counts for the badge', async () => {
    const made = await harness('2026-11-26T06:00:00.000Z')
    const saved = await made.service.save(await draftWithFolder(made))
    made.exportBehaviour.throwCode = 'network'
    const entry = await made.service.runNow(saved.id)
    expect(entry).toMatchObject({ outcome: 'failed', attempts: 3 })
    expect(entry.error).toBe('The platform could not be reached. Check your network. (tried 3 times)')
    expect(made.clock.slept).toEqual([30_000, 60_000])
    expect(made.notifications).toEqual([{ title: 'Schedule failed: Morning file', body: entry.error, failed: true }])
    expect((await made.service.list()).failureCount).toBe(1)
    expect(await made.service.clearFailures()).toEqual({ failureCount: 0 })
  })

  it('does not try other failures again', async () => {
    const made = await harness('2026-11-26T06:00:00.000Z')
    const saved = await made.service.save(await draftWithFolder(made))
    made.exportBehaviour.fail = { code: 'storage', sentence: 'The disk is full.' }
    const entry = await made.service.runNow(saved.id)
    expect(entry).toMatchObject({ outcome: 'failed', attempts: 1, error: 'The disk is full.' })
    expect(made.clock.slept).toEqual([])
  })

  it('writes a sentence for a deleted preset and a folder that is gone, and still runs the next slot', async () => {
    const made = await harness('2026-11-26T06:00:00.000Z')
    await made.service.save(await draftWithFolder(made))
    await made.service.start()
    made.presets.delete('Monday revenue')
    await made.clock.advanceTo('2026-11-26T07:01:00.000Z', () => made.service.idle())
    made.presets.set('Monday revenue', (await import('../../support/channel-samples')).sampleDefinition)
    await fs.rm(made.exportFolder, { recursive: true })
    await made.clock.advanceTo('2026-11-27T07:01:00.000Z', () => made.service.idle())
    const entries = await ledger(made)
    expect(entries.map((entry) => [entry.plannedAt, entry.outcome])).toEqual([
      ['2026-11-26T07:00:00.000Z', 'failed'],
      ['2026-11-27T07:00:00.000Z', 'failed'],
    ])
    expect(entries[0]?.error).toMatch(/^The preset "Monday revenue" was deleted/)
    expect(entries[1]?.error).toMatch(/^The folder adops-schedule-out-\w+ is gone/)
    // Still armed for the day after.
    expect((await made.service.list()).schedules[0]?.nextRunAt).toBe('2026-11-28T07:00:00.000Z')
  })

  it('says when a cron expression never fires, and refuses one it cannot read or with seconds', async () => {
    const made = await harness('2026-11-26T06:00:00.000Z')
    const never = await made.service.save(await draftWithFolder(made, { cadence: { kind: 'cron', expression: '0 0 30 2 *' } }))
    expect(never).toMatchObject({ nextRunAt: null, problem: expect.stringMatching(/never comes due/) })
    await expect(made.service.save(await draftWithFolder(made, { name: 'Bad', cadence: { kind: 'cron', expression: '61 * * * *' } }))).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringMatching(/cannot be read/),
    })
    await expect(
      made.service.save(await draftWithFolder(made, { name: 'Seconds', cadence: { kind: 'cron', expression: '*/5 * * * * *' } })),
    ).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringMatching(/five fields/),
    })
  })

  it("reads the report's timezone as a fixed offset: 07:00 at UTC+1 is 06:00 UTC", async () => {
    const made = await harness('2026-11-26T05:00:00.000Z')
    const saved = await made.service.save(await draftWithFolder(made, { timezone: 'report' }))
    expect(saved.nextRunAt).toBe('2026-11-26T06:00:00.000Z')
    expect(saved.cadenceText).toBe("Every day at 07:00, report's timezone (UTC+1)")
  })

  it('never arms a timer more often than once a minute while idle, with 12 schedules over two days (the bench takes 50)', async () => {
    const made = await harness('2026-11-26T00:00:00.000Z')
    const draft = await draftWithFolder(made)
    for (let index = 0; index < 12; index += 1) {
      const minute = String(index % 60).padStart(2, '0')
      await made.service.save({ ...draft, name: `Schedule ${index}`, cadence: { kind: 'daily', at: `${String(8 + (index % 3)).padStart(2, '0')}:${minute}` } })
    }
    await made.service.start()
    await made.service.idle()
    const armedBefore = made.clock.armed.length
    await made.clock.advanceTo('2026-11-28T00:00:00.000Z', () => made.service.idle())
    expect((await made.service.ledger({ limit: 500 })).total).toBe(24)
    const armed = made.clock.armed.slice(armedBefore)
    // After each check the timer waits for the next whole-minute slot or the cap; never less than a minute when nothing is due.
    const idleArms = armed.filter((delay) => delay > 0)
    expect(Math.min(...idleArms)).toBeGreaterThanOrEqual(60_000)
    expect(Math.max(...armed)).toBeLessThanOrEqual(60 * 60 * 1000)
  })
})
