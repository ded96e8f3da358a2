import { afterEach, describe, expect, it } from 'vitest'
import { DEMO_PROFILE_ID } from '@contract'
import { startSandbox } from '../../../main/sandbox'
import { generateEntities } from '../../../main/sandbox/data/entities'
import { generateFacts } from '../../../main/sandbox/data/facts'
import { DEMO_ALERTS_PRESET } from '../../../main/services/alerts/demo-seed'
import { createTestServices, temporaryFolder, type TestServices } from '../../support/services'
import { demoPreset } from './demo-fixtures'

/**
 * Issue 22: the demo workspace shows alerts on a first launch. Its first start saves a preset of
 * the publishers' daily impressions with a rule that fires on the demo's incident, once: a
 * deleted preset does not come back, and a user's own preset of that name is left as it is.
 */
const NOW = new Date('2026-11-26T10:00:00Z')
const signal = new AbortController().signal

const open: TestServices[] = []
async function launch(userDataDir: string): Promise<TestServices> {
  const services = await createTestServices({
    userDataDir,
    extra: { now: () => NOW, startSandbox: ({ port }) => startSandbox({ port, now: () => NOW }), host: { openKeychain: async () => ({}) as never } },
  })
  open.push(services)
  return services
}
afterEach(async () => {
  for (const services of open.splice(0)) await services.close()
})

function droppedPublisherLabel(): string {
  const entities = generateEntities(1, 'small')
  const { incidents } = generateFacts(1, 'small', Math.floor(NOW.getTime() / 86_400_000), entities)
  const publisher = entities.publishers[incidents.droppedPublisher]
  return `${publisher?.id} — ${publisher?.name}`
}

describe('the demo workspace on a first launch', () => {
  it('has a preset whose alert rule fires on the publisher down 60% yesterday, and on nothing else', async () => {
    const services = await launch(await temporaryFolder())
    await services.workspace.activate(DEMO_PROFILE_ID)
    expect((await services.presets.list()).presets.map((preset) => preset.name)).toContain(DEMO_ALERTS_PRESET)
    expect((await services.alerts.rules(DEMO_ALERTS_PRESET)).rules).toHaveLength(1)
    const result = await services.alerts.check(DEMO_PROFILE_ID, DEMO_ALERTS_PRESET, { signal })
    expect(result.firings.map((firing) => [firing.series, firing.bucket])).toEqual([[droppedPublisherLabel(), '2026-11-25']])
  }, 60_000)

  it('seeds once: a deleted preset does not come back at the next start', async () => {
    const folder = await temporaryFolder()
    const first = await launch(folder)
    await first.workspace.activate(DEMO_PROFILE_ID)
    await first.presets.delete(DEMO_ALERTS_PRESET)
    await first.close()
    open.splice(0)
    const second = await launch(folder)
    await second.workspace.activate(DEMO_PROFILE_ID)
    expect((await second.presets.list()).presets.map((preset) => preset.name)).not.toContain(DEMO_ALERTS_PRESET)
  }, 60_000)

  it("never overwrites the user's own preset of the same name, nor gives it rules", async () => {
    const services = await launch(await temporaryFolder())
    const own = { ...demoPreset('country', 5), metrics: ['clicks'] }
    await services.presets.save({ name: DEMO_ALERTS_PRESET, definition: own }, false)
    await services.workspace.activate(DEMO_PROFILE_ID)
    expect((await services.presets.get(DEMO_ALERTS_PRESET)).definition).toEqual(own)
    expect((await services.alerts.rules(DEMO_ALERTS_PRESET)).rules).toEqual([])
  }, 60_000)
})
