import type { Services } from '../services'
import type { HandlersFor } from './types'

/** Thin: every long call runs under the request registry, so `requests:cancel` can stop it by id. */
export function reportHandlers({ reports, requests, copyRequest, alertWatch }: Services): HandlersFor<'reports'> {
  return {
    'reports:info': ({ profileId, project, report, refresh }) =>
      requests.run(undefined, (signal) => reports.info(profileId, project, report, { signal, ...(refresh === undefined ? {} : { refresh }) })),
    'reports:known': ({ profileId }) => reports.known(profileId),
    'reports:resolveDates': async (input) => reports.resolveDates(input),
    'reports:run': async ({ profileId, definition, requestId, pointBudget, preset }) => {
      const result = await requests.run(requestId, (signal) =>
        reports.run(profileId, definition, { signal, preset, ...(pointBudget === undefined ? {} : { pointBudget }) }),
      )
      // A preset that ran checks its alert rules afterwards, in the background (alerts/alert-watch.ts).
      if (preset) void alertWatch.presetRan(preset, profileId)
      return result
    },
    'reports:audience': ({ profileId, definition, requestId, preset }) =>
      requests.run(requestId, (signal) => reports.audience(profileId, definition, { signal, preset })),
    'reports:values': ({ profileId, definition, key, text, limit, requestId }) =>
      requests.run(requestId, (signal) => reports.values(profileId, definition, { key, text, limit }, { signal })),
    'reports:request': ({ profileId, definition, kind }) => requests.run(undefined, (signal) => copyRequest(profileId, definition, kind, signal)),
  }
}
