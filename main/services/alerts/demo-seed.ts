/**
 * The demo workspace shows alerts on a first launch (issue 22): the first time it starts, a
 * preset of the publishers' daily impressions (the chart the demo's incidents show in) is saved
 * with a rule that fires on the publisher down 60% yesterday, and not on weekends (a 35–40% dip)
 * nor on the tiny publisher that dipped (under the floor). Once only: a user who deletes the
 * preset does not get it back, and a preset of the same name that is the user's own is left alone.
 */
import { defaultDefinitionParts } from '../../../common/definition'
import { timeKey } from '../../../common/granularity'
import type { AlertRule, ReportDefinition } from '@contract'
import type { StartSandbox } from '../connection/demo'
import { isAppError } from '../errors'
import type { PresetStore } from '../presets/preset-store'
import type { SettingsStore } from '../workspace/settings-store'
import type { RuleStore } from './rules-store'

export const DEMO_ALERTS_PRESET = 'Publishers — daily impressions'

const parts = defaultDefinitionParts()
/** The builder's defaults (the last 7 days up to yesterday, common/definition.ts), by publisher, daily, in UTC. */
const definition: ReportDefinition = {
  ...parts,
  project: 'demo',
  report: 'supply',
  timezone: { mode: 'fixed', offset: 0 },
  metrics: ['impressions'],
  // The contract's key, not the spec example's short `day`: the builder reads `day` as a key field.
  granularity: timeKey('day'),
  breakdown: ['publisher'],
  lines: { ...parts.lines, count: 40 },
  filters: [],
  filterLogic: '',
  metricConditions: [],
  metricConditionLogic: '',
  sort: [],
  chart: { ...parts.chart, showMarkers: false },
}

/** 40% either way, z ≥ 3, and a floor of 20,000 impressions a day: what separates the demo's incidents from its weekends and its tiny publisher. */
const rule: AlertRule = { id: 'volume', metric: 'impressions', direction: 'either', minChangePct: 40, minZ: 3, minBaseline: 20_000, weeks: 4 }

export interface DemoSeedDependencies {
  presets: Pick<PresetStore, 'get' | 'save'>
  rules: Pick<RuleStore, 'save'>
  settings: Pick<SettingsStore, 'read' | 'update'>
}

export async function seedDemoAlerts({ presets, rules, settings }: DemoSeedDependencies): Promise<void> {
  if ((await settings.read()).demoAlertsSeeded) return
  const taken = await presets.get(DEMO_ALERTS_PRESET).then(
    () => true,
    (error: unknown) => {
      if (isAppError(error) && error.code === 'not_found') return false
      throw error
    },
  )
  if (!taken) {
    await presets.save(
      { name: DEMO_ALERTS_PRESET, definition, description: 'The demo’s publishers day by day, with an alert rule that fires on its incidents.' },
      false,
    )
    await rules.save(DEMO_ALERTS_PRESET, [rule])
  }
  await settings.update({ demoAlertsSeeded: true })
}

/** The demo backend's start, then the seed: done before the page lists the presets. */
export function seedingOnStart(start: StartSandbox, seed: () => Promise<void>): StartSandbox {
  return async (options) => {
    const started = await start(options)
    await seed()
    return started
  }
}
