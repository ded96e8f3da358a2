import type { Services } from '../services'
import type { HandlersFor } from './types'

/** Thin: every long call runs under the request registry, so `requests:cancel` can stop it by id. */
export function reportHandlers({ reports, requests }: Services): HandlersFor<'reports'> {
  return {
    'reports:info': ({ profileId, project, report, refresh }) =>
      requests.run(undefined, (signal) => reports.info(profileId, project, report, { signal, ...(refresh === undefined ? {} : { refresh }) })),
    'reports:known': ({ profileId }) => reports.known(profileId),
    'reports:resolveDates': async (input) => reports.resolveDates(input),
    'reports:run': ({ profileId, definition, requestId, pointBudget }) =>
      requests.run(requestId, (signal) => reports.run(profileId, definition, { signal, ...(pointBudget === undefined ? {} : { pointBudget }) })),
    'reports:audience': ({ profileId, definition, requestId }) => requests.run(requestId, (signal) => reports.audience(profileId, definition, { signal })),
    'reports:values': ({ profileId, definition, key, text, limit, requestId }) =>
      requests.run(requestId, (signal) => reports.values(profileId, definition, { key, text, limit }, { signal })),
  }
}
