import type { Services } from '../services'
import type { HandlersFor } from './types'

/** Thin: files by id, pivots by id, windows and the SQL box; no path crosses (the contract has none). */
export function analysisHandlers({ analysis }: Services): HandlersFor<'analysis'> {
  return {
    'analysis:openFile': () => analysis.openChosen(),
    'analysis:openExport': ({ jobId }) => analysis.openExport(jobId),
    'analysis:files': async () => ({ files: analysis.files() }),
    'analysis:pivot': ({ fileId, layout, filters }) => analysis.pivot(fileId, layout, filters),
    'analysis:window': ({ pivotId, request }) => analysis.window(pivotId, request),
    'analysis:sql': ({ fileIds, query }) => analysis.sql(fileIds, query),
    'analysis:savePivot': ({ pivotId, format }) => analysis.savePivot(pivotId, format),
    'analysis:saveSql': ({ fileIds, query }) => analysis.saveSql(fileIds, query),
    async 'analysis:close'({ fileId }) {
      await analysis.close(fileId)
      return null
    },
  }
}
