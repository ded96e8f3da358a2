import type { Services } from '../services'
import type { HandlersFor } from './types'

/** Thin: jobs are main's (cancelled by job id, not through the request registry); the estimate is a call `requests:cancel` can stop. */
export function exportHandlers({ exports, chartFiles, requests }: Services): HandlersFor<'exports'> {
  return {
    'exports:start': ({ profileId, source, options }) => exports.start(profileId, source, options),
    'exports:cancel': ({ jobId }) => exports.cancel(jobId),
    'exports:list': async () => ({ jobs: await exports.list() }),
    async 'exports:open'({ jobId }) {
      await exports.open(jobId)
      return null
    },
    async 'exports:reveal'({ jobId }) {
      await exports.reveal(jobId)
      return null
    },
    'exports:preview': ({ jobId }) => exports.preview(jobId),
    'exports:estimate': ({ profileId, source, options, requestId }) =>
      requests.run(requestId, (signal) => exports.estimate(profileId, source, options, signal)),
    'exports:saveChart': (file) => chartFiles.save(file),
    'exports:savePivot': (file) => chartFiles.savePivot(file),
  }
}
