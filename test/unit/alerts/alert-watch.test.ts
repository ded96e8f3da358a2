import { describe, expect, it } from 'vitest'
import { ALERT_WATCH_TIMING, createAlertWatch, type AlertWatchOptions } from '../../../main/services/alerts/alert-watch'
import { createAppAlertWatch } from '../../../main/services/alerts/app-alerts'
import { AppError } from '../../../main/services/errors'
import { createManualTimers } from '../../support/manual-timers'

/**
 * Issue 39: rules are checked without a schedule, shortly after start and every 30 minutes, one
 * preset at a time, never while offline, and a failing connection backs off.
 */
const START = Date.parse('2026-11-26T10:00:00Z')

function harness(overrides: Partial<AlertWatchOptions> = {}) {
  const clock = createManualTimers(START)
  const checks: Array<{ preset: string; profileId: string | null; at: number }> = []
  let running = 0
  let mostAtOnce = 0
  let online = true
  const watch = createAlertWatch({
    async check(preset, profileId) {
      running += 1
      mostAtOnce = Math.max(mostAtOnce, running)
      checks.push({ preset, profileId, at: clock.nowMs() - START })
      await Promise.resolve()
      running -= 1
      return { firings: [], dataAsOf: clock.now().toISOString(), checkedSeries: 1 }
    },
    presetsWithRules: async () => ['Publishers', 'Bidders'],
    hasRules: async (preset) => preset !== 'No rules',
    online: () => online,
    nowMs: clock.nowMs,
    failed: () => undefined,
    timers: clock.timers,
    ...overrides,
  })
  return { clock, checks, watch, mostAtOnce: () => mostAtOnce, setOnline: (value: boolean) => (online = value) }
}

describe('the alert watch', () => {
  it('never rejects on its timer: a host whose online check throws counts as online, and a failing round still sets the next', async () => {
    const failures: unknown[] = []
    const { clock, checks, watch } = harness({
      online: () => {
        throw new TypeError('net.isOnline is not a function')
      },
      presetsWithRules: async () => ['Publishers'],
      failed: (_preset, error) => failures.push(error),
    })
    watch.start()
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    await watch.idle()
    expect(checks.map((check) => check.preset)).toEqual(['Publishers'])
    await Promise.resolve()
    expect(clock.waiting()).toEqual([ALERT_WATCH_TIMING.everyMs])
    expect(failures).toEqual([])
    await watch.stop()
  })

  it('checks every preset with rules shortly after start, then every 30 minutes, one at a time', async () => {
    const { clock, checks, watch, mostAtOnce } = harness()
    watch.start()
    expect(checks).toEqual([])
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    await watch.idle()
    expect(checks.map((check) => [check.preset, check.profileId, check.at])).toEqual([
      ['Publishers', null, 5_000],
      ['Bidders', null, 5_000],
    ])
    expect(mostAtOnce()).toBe(1)
    await Promise.resolve()
    expect(clock.waiting()).toEqual([ALERT_WATCH_TIMING.everyMs])
    clock.advance(ALERT_WATCH_TIMING.everyMs)
    await watch.idle()
    expect(checks).toHaveLength(4)
    await watch.stop()
    expect(clock.waiting()).toEqual([])
  })

  it('checks nothing while offline, and checks again once back online', async () => {
    const { clock, checks, watch, setOnline } = harness()
    setOnline(false)
    watch.start()
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    await watch.idle()
    expect(checks).toEqual([])
    setOnline(true)
    await Promise.resolve()
    clock.advance(ALERT_WATCH_TIMING.everyMs)
    await watch.idle()
    expect(checks).toHaveLength(2)
    await watch.stop()
  })

  it('stops the round and backs off, doubling, when the platform limits requests', async () => {
    const clock = createManualTimers(START)
    const tried: number[] = []
    const watch = createAlertWatch({
      async check() {
        tried.push(clock.nowMs() - START)
        throw new AppError('throttled', 'The platform is limiting how fast requests can be made.', { retryAfterSeconds: 60 })
      },
      presetsWithRules: async () => ['Publishers', 'Bidders'],
      hasRules: async () => true,
      online: () => true,
      nowMs: clock.nowMs,
      failed: () => undefined,
      timers: clock.timers,
    })
    watch.start()
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    await watch.idle()
    // The second preset is not tried after a 429: the round stops.
    expect(tried).toEqual([5_000])
    await Promise.resolve()
    expect(clock.waiting()).toEqual([ALERT_WATCH_TIMING.everyMs])
    clock.advance(ALERT_WATCH_TIMING.everyMs)
    await watch.idle()
    await Promise.resolve()
    expect(clock.waiting()).toEqual([2 * ALERT_WATCH_TIMING.everyMs])
    await watch.stop()
  })

  it('holds back while any request waits out a 429', async () => {
    const { clock, checks, watch } = harness()
    watch.start()
    watch.throttled(3_600)
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    await watch.idle()
    expect(checks).toEqual([])
    await watch.presetRan('Publishers', 'demo')
    expect(checks).toEqual([])
    await watch.stop()
  })

  it('checks a preset that ran, on the run’s connection, at most every ten minutes, and not one without rules', async () => {
    const { clock, checks, watch } = harness()
    watch.start()
    await watch.presetRan('Publishers', 'demo')
    await watch.presetRan('Publishers', 'demo')
    await watch.presetRan('No rules', 'demo')
    expect(checks.map((check) => [check.preset, check.profileId])).toEqual([['Publishers', 'demo']])
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    await watch.idle()
    clock.advance(ALERT_WATCH_TIMING.sameRunGapMs)
    await watch.presetRan('Publishers', 'demo')
    expect(checks.filter((check) => check.profileId === 'demo')).toHaveLength(2)
    await watch.stop()
  })
})

describe('the app’s alert watch', () => {
  it('checks nothing, and logs nothing, while no connection is active; then checks presets with rules only', async () => {
    const clock = createManualTimers(START)
    const checked: string[] = []
    const warnings: string[] = []
    let active: string | null = null
    const watch = createAppAlertWatch({
      alerts: {
        check: async () => ({ firings: [], dataAsOf: '', checkedSeries: 0 }),
        checkPresetAlerts: async (name) => (checked.push(name), { firings: [], dataAsOf: '', checkedSeries: 1 }),
      },
      presets: { list: async () => ({ presets: [{ name: 'With rules' }, { name: 'Without' }] as never, refused: [] }) },
      rules: { read: async (preset) => ({ preset, rules: preset === 'With rules' ? [{} as never] : [], savedAt: null }) },
      events: { subscribe: () => () => undefined },
      activeProfileId: async () => active,
      online: () => true,
      log: { warn: (message) => void warnings.push(message) },
      now: clock.now,
      timers: clock.timers,
    })
    watch.start()
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    await watch.idle()
    expect(checked).toEqual([])
    active = 'demo'
    await Promise.resolve()
    clock.advance(ALERT_WATCH_TIMING.everyMs)
    await watch.idle()
    expect(checked).toEqual(['With rules'])
    expect(warnings).toEqual([])
    await watch.stop()
  })
})
