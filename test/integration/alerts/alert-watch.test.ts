import { afterEach, describe, expect, it } from 'vitest'
import { DEMO_PROFILE_ID, type FiredAlertView } from '@contract'
import { startSandbox } from '../../../main/sandbox'
import { reportHandlers } from '../../../main/handlers/reports'
import { ALERT_WATCH_TIMING } from '../../../main/services/alerts/alert-watch'
import { DEMO_ALERTS_PRESET } from '../../../main/services/alerts/demo-seed'
import { createManualTimers } from '../../support/manual-timers'
import { createTestServices, temporaryFolder, type TestServices } from '../../support/services'

/**
 * Issue 39: on a fresh profile the demo's planted incident is in Alerts within seconds of opening
 * the demo, without any schedule; and a preset with rules that runs in Reports checks them.
 * The watch runs on a manual clock: nothing here waits a fixed time, it waits for the event.
 */
const NOW = Date.parse('2026-11-26T10:00:00Z')
const open: TestServices[] = []
afterEach(async () => {
  for (const services of open.splice(0)) await services.close()
})

async function freshProfile() {
  const clock = createManualTimers(NOW)
  const services = await createTestServices({
    userDataDir: await temporaryFolder(),
    extra: {
      now: clock.now,
      alertTimers: clock.timers,
      startSandbox: ({ port }) => startSandbox({ port, now: () => new Date(NOW) }),
      host: { openKeychain: async () => ({}) as never },
    },
  })
  open.push(services)
  const fired = new Promise<FiredAlertView>((resolve) =>
    services.events.subscribe((event, payload) => {
      if (event === 'onAlertFired') resolve(payload as FiredAlertView)
    }),
  )
  return { clock, services, fired }
}

describe('alerts without a schedule', () => {
  it('the demo opened on a fresh profile has its incident in Alerts shortly after, with no schedule', async () => {
    const { clock, services, fired } = await freshProfile()
    services.alertWatch.start()
    await services.workspace.activate(DEMO_PROFILE_ID)
    expect((await services.alerts.fired({})).total).toBe(0)
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    const alert = await fired
    await services.alertWatch.idle()
    expect(alert.preset).toBe(DEMO_ALERTS_PRESET)
    expect(alert.bucket).toBe('2026-11-25')
    expect((await services.schedules.list()).schedules).toEqual([])
    expect((await services.alerts.fired({})).alerts.map((kept) => kept.preset)).toEqual([DEMO_ALERTS_PRESET])
  }, 60_000)

  it('the interval checks the seeded rule: a rule present at the next round fires 30 minutes later', async () => {
    const { clock, services, fired } = await freshProfile()
    services.alertWatch.start()
    await services.workspace.activate(DEMO_PROFILE_ID)
    const seeded = (await services.alerts.rules(DEMO_ALERTS_PRESET)).rules
    expect(seeded).toHaveLength(1)
    // The first round finds no rule to check; the rule is back before the next one.
    await services.alerts.saveRules(DEMO_ALERTS_PRESET, [])
    clock.advance(ALERT_WATCH_TIMING.firstMs)
    await services.alertWatch.idle()
    expect((await services.alerts.fired({})).total).toBe(0)
    await services.alerts.saveRules(DEMO_ALERTS_PRESET, seeded)
    clock.advance(ALERT_WATCH_TIMING.everyMs)
    const alert = await fired
    expect(alert.preset).toBe(DEMO_ALERTS_PRESET)
    expect(clock.nowMs() - NOW).toBe(ALERT_WATCH_TIMING.firstMs + ALERT_WATCH_TIMING.everyMs)
  }, 60_000)

  it('a preset with rules that runs in Reports checks its rules afterwards', async () => {
    const { services, fired } = await freshProfile()
    services.alertWatch.start()
    await services.workspace.activate(DEMO_PROFILE_ID)
    const definition = (await services.presets.get(DEMO_ALERTS_PRESET)).definition
    await reportHandlers(services)['reports:run']({ profileId: DEMO_PROFILE_ID, definition, preset: DEMO_ALERTS_PRESET })
    const alert = await fired
    expect(alert.preset).toBe(DEMO_ALERTS_PRESET)
    expect(alert.changePct).toBeLessThan(-50)
  }, 60_000)
})
