/**
 * A compromised page may save hundreds of every-minute schedules that each export (the review's
 * "schedule flood"): the number of schedules and their combined runs per hour are bounded at save.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Cadence } from '@contract'
import { busiestHour, checkScheduleBounds, minutesNamed, SCHEDULE_BOUNDS } from '../../../main/services/schedules/schedule-bounds'
import type { StoredSchedule } from '../../../main/services/schedules/schedule-store'
import { createHarness, draftWithFolder, type Harness } from './support'

const open: Harness[] = []
afterEach(() => {
  for (const made of open.splice(0)) made.service.stop()
})

const stored = (index: number, cadence: Cadence = { kind: 'daily', at: '07:00' }, enabled = true): StoredSchedule => ({
  id: `schedule-${index}`,
  name: `Schedule ${index}`,
  target: { kind: 'preset', name: 'Monday revenue' },
  profileId: 'demo',
  actions: { export: null, checkAlerts: true },
  cadence,
  timezone: 'computer',
  reportOffsetMinutes: null,
  enabled,
  activeSince: '2026-11-26T06:00:00.000Z',
  savedAt: '2026-11-26T06:00:00.000Z',
})
const everyMinute: Cadence = { kind: 'cron', expression: '* * * * *' }

describe('the bounds on schedules', () => {
  it("reads a cadence's busiest hour from its minute field", () => {
    expect(busiestHour({ kind: 'daily', at: '07:00' })).toBe(1)
    expect(busiestHour({ kind: 'weekdays', at: '07:00', days: ['mon', 'fri'] })).toBe(1)
    expect(busiestHour(everyMinute)).toBe(60)
    expect(busiestHour({ kind: 'cron', expression: '*/5 7 * * 1-5' })).toBe(12)
    expect(minutesNamed('0,15,30,45')).toBe(4)
    expect(minutesNamed('10-19')).toBe(10)
    expect(minutesNamed('10-19/5,40')).toBe(3)
    expect(minutesNamed('5/15')).toBe(4)
    expect(minutesNamed('0,0,0')).toBe(1)
    // What it cannot read counts as every minute.
    expect(minutesNamed('weird')).toBe(60)
  })

  it('refuses a schedule past the count, with a sentence, but lets a list already past it be edited', () => {
    const full = Array.from({ length: SCHEDULE_BOUNDS.schedules }, (_, index) => stored(index))
    expect(() => checkScheduleBounds(full, [...full, stored(999)])).toThrow(
      `There are ${SCHEDULE_BOUNDS.schedules} schedules already, and AdOps Desk keeps at most ${SCHEDULE_BOUNDS.schedules}. Delete one you no longer need before adding another.`,
    )
    const older = [...full, stored(998)]
    expect(() =>
      checkScheduleBounds(
        older,
        older.map((schedule, index) => (index === 0 ? { ...schedule, name: 'Renamed' } : schedule)),
      ),
    ).not.toThrow()
  })

  it('refuses a save that raises the combined rate past the bound; switched-off schedules do not count; lowering it is always allowed', () => {
    const two = [stored(1, everyMinute), stored(2, everyMinute)]
    expect(() => checkScheduleBounds(two, [...two, stored(3, { kind: 'cron', expression: '*/30 * * * *' }, false)])).not.toThrow()
    expect(() => checkScheduleBounds(two, [...two, stored(3, { kind: 'cron', expression: '*/30 * * * *' })])).toThrow(
      /could run 122 times in one hour, and AdOps Desk allows at most 120 an hour across all of them .* Make this one run less often/,
    )
    const three = [...two, stored(3, everyMinute)]
    expect(() =>
      checkScheduleBounds(three, [stored(1, everyMinute), stored(2, everyMinute), stored(3, { kind: 'cron', expression: '*/2 * * * *' })]),
    ).not.toThrow()
  })

  it('through the service: a page saving every-minute schedules at once gets two saved and the rest refused with the sentence', async () => {
    const made = await createHarness('2026-11-26T06:00:00.000Z')
    open.push(made)
    const draft = await draftWithFolder(made, { cadence: everyMinute })
    const saves = await Promise.allSettled(Array.from({ length: 6 }, (_, index) => made.service.save({ ...draft, name: `Flood ${index}` })))
    expect(saves.filter((save) => save.status === 'fulfilled')).toHaveLength(2)
    const refusals = saves.flatMap((save) => (save.status === 'rejected' ? [save.reason as { code: string; message: string; fields?: unknown }] : []))
    expect(refusals).toHaveLength(4)
    for (const refusal of refusals) expect(refusal).toMatchObject({ code: 'validation', message: expect.stringMatching(/could run 180 times in one hour/) })
    expect((await made.service.list()).schedules).toHaveLength(2)
  })
})
