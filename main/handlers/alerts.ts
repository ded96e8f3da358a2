import type { Services } from '../services'
import type { HandlersFor } from './types'

/** Alerts: rules, backtests and checks (cancellable by request id), fired alerts and their state. */
export function alertHandlers({ alerts, requests }: Services): HandlersFor<'alerts'> {
  return {
    'alerts:rules': ({ preset }) => alerts.rules(preset),
    'alerts:saveRules': ({ preset, rules }) => alerts.saveRules(preset, rules),
    'alerts:backtest': ({ preset, profileId, rule, requestId }) => requests.run(requestId, (signal) => alerts.backtest(profileId, preset, rule, signal)),
    'alerts:check': ({ preset, profileId, requestId }) => requests.run(requestId, (signal) => alerts.check(profileId, preset, { signal })),
    'alerts:fired': (query) => alerts.fired(query),
    'alerts:acknowledge': ({ id }) => alerts.acknowledge(id),
    'alerts:snooze': ({ id, until }) => alerts.snooze(id, new Date(until)),
    'alerts:get': ({ id }) => alerts.get(id),
  }
}
