import { promises as fs } from 'node:fs'
import path from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createHarness, draftWithFolder, type Harness } from '../unit/schedules/support'
import { createTargets, ensure } from './targets'

/**
 * Issue 22: the scheduler in main while the app is idle, with 50 schedules, on a fake clock
 * (main/services/schedules/scheduler.ts: one timer, through the injected clock, counted here).
 *  - heap the scheduler adds: 50 schedules saved and the loop started, against the same service
 *    with none, both measured in this run after a full garbage collection;
 *  - timers on an idle day (every schedule runs on Sundays; the day simulated is a Thursday):
 *    how many the loop arms in 24 hours and the shortest wait among them;
 *  - timers on a busy day (50 daily schedules, a minute apart or more): the shortest time between
 *    two timers firing, the runs included.
 */
const SCHEDULES = 50
/** Wake-ups per minute at the shortest wait: 60 s / the shortest wait, at most 1. */
const TARGETS = { heapMb: 5, wakeupsPerMinute: 1 } as const

const collect: () => void = (() => {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
})()

function heapMb(): number {
  for (let round = 0; round < 3; round += 1) collect()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

async function withSchedules(count: number, cadenceOf: (index: number) => { at: string; days?: Array<'sun'> }, start: string): Promise<Harness> {
  const made = await createHarness(start)
  const draft = await draftWithFolder(made)
  for (let index = 0; index < count; index += 1) {
    const { at, days } = cadenceOf(index)
    await made.service.save({ ...draft, name: `Schedule ${index}`, cadence: days ? { kind: 'weekdays', days, at } : { kind: 'daily', at } })
  }
  return made
}

const timeOf = (index: number) => `${String(6 + Math.floor(index / 10)).padStart(2, '0')}:${String((index % 10) * 5).padStart(2, '0')}`

export default async function bench(): Promise<void> {
  const targets = createTargets()
  const thursday = '2026-11-26T00:00:00.000Z'

  // Heap: the same service with 0 and with 50 schedules, each started and idle.
  const empty = await withSchedules(0, () => ({ at: '00:00' }), thursday)
  await empty.service.start()
  await empty.service.idle()
  const baseline = heapMb()
  const full = await withSchedules(SCHEDULES, (index) => ({ at: timeOf(index), days: ['sun'] }), thursday)
  await full.service.start()
  await full.service.idle()
  const withFifty = heapMb()
  targets.note('heap, idle scheduler with no schedule (baseline)', baseline, 'MB')
  targets.check(`heap added by ${SCHEDULES} idle schedules`, withFifty - baseline, 'MB', TARGETS.heapMb, { atMost: true })

  // An idle day: nothing is due, the timer only re-arms at its cap.
  const armedBefore = full.clock.armed.length
  await full.clock.advanceTo('2026-11-27T00:00:00.000Z', () => full.service.idle())
  const idleArms = full.clock.armed.slice(armedBefore)
  ensure((await full.service.ledger({})).total === 0, 'nothing was to run on the idle day')
  targets.note('timers armed in an idle day', idleArms.length, 'timers')
  targets.note('shortest timer wait, idle day', Math.min(...idleArms) / 1000, 's')
  targets.check('wake-ups per minute at that wait, idle day', 60_000 / Math.min(...idleArms), 'per min', TARGETS.wakeupsPerMinute, { atMost: true })

  // A busy day: every schedule runs; the loop still never wakes twice within a minute.
  const busy = await withSchedules(SCHEDULES, (index) => ({ at: timeOf(index) }), thursday)
  const fired: number[] = []
  const setTimer = busy.clock.setTimer
  busy.clock.setTimer = (delay, callback) => setTimer(delay, () => (fired.push(busy.clock.time), callback()))
  await busy.service.start()
  await busy.clock.advanceTo('2026-11-27T00:00:00.000Z', () => busy.service.idle())
  ensure((await busy.service.ledger({ limit: 500 })).total === SCHEDULES, `all ${SCHEDULES} schedules ran once`)
  const gaps = fired.slice(1).map((at, index) => at - (fired[index] ?? at))
  targets.note('timers fired in a day of 50 runs', fired.length, 'timers')
  targets.note('shortest time between two timers, busy day', Math.min(...gaps) / 1000, 's')
  targets.check('wake-ups per minute at that gap, busy day', 60_000 / Math.min(...gaps), 'per min', TARGETS.wakeupsPerMinute, { atMost: true })

  for (const made of [empty, full, busy]) made.service.stop()
  // The harness's folders are the test runner's to remove in a test; here they are the bench's.
  for (const made of [empty, full, busy])
    for (const folder of [path.dirname(made.folder), made.exportFolder]) await fs.rm(folder, { recursive: true, force: true })
  targets.verdict()
}
