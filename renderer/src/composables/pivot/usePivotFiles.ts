import { shallowRef } from 'vue'
import type { PivotFileFormat } from '@contract'
import { pivotTable, tableLines } from '../../../../common/pivot/table'
import type { PivotColumn, PivotLayout } from '../../../../common/pivot/types'
import { api, errorMessage, unwrap } from '../../api/bridge'
import { escapeTsv } from '../../domain/reports/tsv'
import type { RemotePivot } from './pivotWorkerClient'
import { useReportsStore } from '../../stores/reports'
import { fieldTitle } from './useResultPivot'

export interface PivotFileSources {
  pivot: () => RemotePivot | null
  layout: () => PivotLayout | null
  columnLabel: (column: PivotColumn) => string
  notify: (kind: 'success' | 'error', text: string) => void
}

/**
 * Copy as TSV (raw numbers, empty cells empty, totals included: the series table's escaping),
 * and Save as csv or xlsx: the page sends the layout and the result, main computes the same
 * pivot and writes it where its dialog says (pivot-files.ts). No cell table crosses the bridge.
 */
export function usePivotFiles(sources: PivotFileSources) {
  const store = useReportsStore()
  const busy = shallowRef(false)

  async function copy(): Promise<void> {
    const pivot = sources.pivot()
    const layout = sources.layout()
    if (!pivot || !layout) return
    try {
      // The cells come from the pivot's worker; the labels are the page's (the grid's own).
      const { rows, columns, cells } = await pivot.whole()
      const whole = { rows, columns, cell: (row: number, column: number) => cells[row]?.[column] ?? null }
      const table = pivotTable(whole, { rowFields: layout.rows.map(fieldTitle), columnDepth: layout.columns.length, columnLabel: sources.columnLabel })
      const text =
        tableLines(table)
          .map((line) => line.map(escapeTsv).join('\t'))
          .join('\n') + '\n'
      await navigator.clipboard.writeText(text)
      sources.notify('success', `Copied ${pivot.rowCount} rows as TSV`)
    } catch (error) {
      sources.notify('error', `The pivot could not be copied: ${(error as Error).message}`)
    }
  }

  async function save(format: PivotFileFormat): Promise<void> {
    const layout = sources.layout()
    const result = store.result
    const definition = store.definition
    if (busy.value || !layout || !result || !definition) return
    busy.value = true
    try {
      const fields = (store.info?.dataFields ?? []).map(({ name, displayType, precision }) => ({
        name,
        displayType,
        precision: Math.max(0, Math.min(12, Math.round(precision))),
      }))
      const name = `${store.preset ?? `${definition.project} ${definition.report}`} pivot`
      // Plain copies: Electron's IPC cannot clone the store's reactive proxies (plainDefinition says the same).
      const plain = JSON.parse(JSON.stringify({ layout, breakdown: definition.breakdown })) as { layout: PivotLayout; breakdown: string[] }
      const saved = await unwrap(api().exports.savePivot({ format, name, layout: plain.layout, result, breakdown: plain.breakdown, fields }))
      if (saved !== null) sources.notify('success', `Saved ${saved.fileName}`)
    } catch (error) {
      sources.notify('error', `The pivot could not be saved: ${errorMessage(error)}`)
    } finally {
      busy.value = false
    }
  }

  return { busy, copy, save }
}
