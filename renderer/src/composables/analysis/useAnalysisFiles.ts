import { ref } from 'vue'
import type { PivotColumn } from '../../../../common/pivot/types'
import { api, errorMessage, unwrap } from '../../api/bridge'
import { counted } from '../../lib/format'
import { useAnalysisStore } from '../../stores/analysis'
import { readWholePivot } from '../../../../common/pivot/whole-pivot'
import { pivotTsv, sqlTsv } from './analysisText'

/**
 * Copy and save on the Analysis page, as the Reports pivot does them: Copy as TSV builds the text
 * in the page from main's windows; Save CSV / Save XLSX send only ids, and main writes the file
 * where its save dialog says (`analysis:savePivot`, `analysis:saveSql`). `status` is the sentence
 * of the last one (shown in a live region).
 */
export function useAnalysisFiles(columnLabel: (column: PivotColumn) => string) {
  const store = useAnalysisStore()
  const busy = ref(false)
  const status = ref<{ kind: 'success' | 'error'; text: string } | null>(null)

  async function run(work: () => Promise<string | null>, failure: string): Promise<void> {
    if (busy.value) return
    busy.value = true
    try {
      const done = await work()
      if (done !== null) status.value = { kind: 'success', text: done }
    } catch (error) {
      status.value = { kind: 'error', text: `${failure}: ${errorMessage(error)}` }
    } finally {
      busy.value = false
    }
  }

  const saved = (answer: { fileName: string } | null): string | null => (answer === null ? null : `Saved ${answer.fileName}`)

  return {
    busy,
    status,
    copyPivot: () =>
      run(async () => {
        const pivot = store.pivot
        const layout = store.layout
        if (!pivot || !layout) return null
        const whole = await readWholePivot(pivot, store.window)
        await navigator.clipboard.writeText(pivotTsv(whole, layout, columnLabel))
        return `Copied ${counted(pivot.rowCount, 'row')} as TSV`
      }, 'The pivot could not be copied'),
    savePivot: (format: 'csv' | 'xlsx') =>
      run(async () => {
        const pivot = store.pivot
        return pivot ? saved(await unwrap(api().analysis.savePivot({ pivotId: pivot.pivotId, format }))) : null
      }, 'The pivot could not be saved'),
    copySql: () =>
      run(async () => {
        const answer = store.sqlRows
        if (!answer) return null
        await navigator.clipboard.writeText(sqlTsv(answer))
        return `Copied ${counted(answer.rows.length, 'row')} as TSV`
      }, 'The rows could not be copied'),
    saveSql: () =>
      run(async () => {
        const query = store.sqlQuery
        if (!query) return null
        return saved(await unwrap(api().analysis.saveSql({ fileIds: store.files.map((file) => file.id), query })))
      }, 'The rows could not be saved'),
  }
}
