import type { PivotLayout, PivotWindow, PivotWindowRequest } from '../../../common/pivot/types'
import { AppError } from '../errors'
import type { OpenFilesDialog, SaveFileDialog } from '../files/dialogs'
import { readWholePivot } from '../../../common/pivot/whole-pivot'
import { analysisPivotBytes, saveAnalysisFile, sqlAnswerCsv, type AnalysisFileFormat } from './analysis-files'
import type { BoundedRows } from './engine'
import { createOpenedFiles, type OpenedFileInfo, type OpenedFiles } from './opened-files'
import { computePivot, type AnalysisFilter, type EnginePivot } from './pivot-query'
import type { SqlAnswerLimits } from './sql-answer'
import { runSqlBox } from './sql-box'

/**
 * Local analysis, as the handlers and the CLI use it: opened files by id, their pivots by id,
 * windows of a pivot, the SQL box. A file keeps its few most recent pivots (each is three tables
 * in the engine); an older pivot id answers "compute it again".
 */

export const PIVOTS_KEPT_PER_FILE = 4

export interface PivotSummary {
  pivotId: string
  rowCount: number
  columnCount: number
}

export interface Analysis {
  open(filePath: string): Promise<OpenedFileInfo>
  /** Main's open dialog (the web host: its data folder); null when cancelled. */
  openChosen(): Promise<OpenedFileInfo | null>
  /** A finished export, by its job id. */
  openExport(jobId: string): Promise<OpenedFileInfo>
  files(): OpenedFileInfo[]
  pivot(fileId: string, layout: PivotLayout, filters: readonly AnalysisFilter[]): Promise<PivotSummary>
  window(pivotId: string, request: PivotWindowRequest): Promise<PivotWindow>
  sql(fileIds: readonly string[], query: string, limits?: Partial<SqlAnswerLimits>): Promise<BoundedRows>
  /** The pivot as shown, as csv or xlsx where main's save dialog says; null when cancelled. */
  savePivot(pivotId: string, format: AnalysisFileFormat): Promise<{ fileName: string } | null>
  /** The SQL box's answer (the query run again, within the same bounds) as csv; null when cancelled. */
  saveSql(fileIds: readonly string[], query: string): Promise<{ fileName: string } | null>
  close(fileId: string): Promise<void>
  dispose(): void
}

interface KeptPivot {
  fileId: string
  key: string
  layout: PivotLayout
  computed: EnginePivot
}

export interface AnalysisSources {
  /** The registry of opened files (a fresh one by default). */
  openedFiles?: OpenedFiles
  dialogs?: OpenFilesDialog
  /** Where a saved pivot or SQL answer goes (main's save dialog; the web host: its exports folder). */
  saveDialog?: SaveFileDialog
  /** A finished export job's file (exports/file-actions.ts: a sentence when it is not done or gone). */
  exportFile?: (jobId: string) => Promise<string>
}

const ANALYSIS_FILES = { name: 'Tables (csv, tsv, xlsx)', extensions: ['csv', 'tsv', 'txt', 'xlsx'] }

export function createAnalysis(sources: AnalysisSources = {}): Analysis {
  const openedFiles = sources.openedFiles ?? createOpenedFiles()
  const pivots = new Map<string, KeptPivot>()
  let counter = 0

  async function forget(pivotId: string): Promise<void> {
    const kept = pivots.get(pivotId)
    if (kept === undefined) return
    pivots.delete(pivotId)
    await kept.computed.drop()
  }

  async function runSql(fileIds: readonly string[], query: string, limits?: Partial<SqlAnswerLimits>): Promise<BoundedRows> {
    const tables = fileIds.flatMap((fileId) =>
      openedFiles
        .list()
        .filter((file) => file.id === fileId)
        .map((file) => file.table),
    )
    return runSqlBox(await openedFiles.databaseFor(fileIds), query, limits, tables)
  }

  function keptPivot(pivotId: string): KeptPivot {
    const kept = pivots.get(pivotId)
    if (kept === undefined) throw new AppError('not_found', 'That pivot is no longer kept; apply the layout again to compute it.')
    return kept
  }

  return {
    open: (filePath) => openedFiles.open(filePath),
    async openChosen() {
      if (sources.dialogs === undefined) throw new AppError('bad_input', 'This window cannot show an open dialog.')
      const [chosen] = await sources.dialogs.chooseOpenPaths('Open a file for analysis', ANALYSIS_FILES)
      return chosen === undefined ? null : openedFiles.open(chosen)
    },
    async openExport(jobId) {
      if (sources.exportFile === undefined) throw new AppError('bad_input', 'Exports cannot be opened here.')
      return openedFiles.open(await sources.exportFile(jobId))
    },
    files: () => openedFiles.list(),
    async pivot(fileId, layout, filters) {
      const file = openedFiles.info(fileId)
      const key = JSON.stringify([layout, filters])
      const same = [...pivots.entries()].find(([, kept]) => kept.fileId === fileId && kept.key === key)
      if (same !== undefined) return { pivotId: same[0], rowCount: same[1].computed.rowCount, columnCount: same[1].computed.columnCount }
      counter++
      const pivotId = `pivot_${counter}`
      const computed = await computePivot(openedFiles.database(fileId), file.table, file.columns, layout, filters, pivotId)
      pivots.set(pivotId, { fileId, key, layout, computed })
      const ofFile = [...pivots.entries()].filter(([, kept]) => kept.fileId === fileId)
      for (const [oldId] of ofFile.slice(0, Math.max(0, ofFile.length - PIVOTS_KEPT_PER_FILE))) await forget(oldId)
      return { pivotId, rowCount: computed.rowCount, columnCount: computed.columnCount }
    },
    async window(pivotId, request) {
      return keptPivot(pivotId).computed.window(request)
    },
    async savePivot(pivotId, format) {
      const kept = keptPivot(pivotId)
      const file = openedFiles.info(kept.fileId)
      const whole = await readWholePivot(kept.computed, (request) => kept.computed.window(request))
      const data = analysisPivotBytes(whole, kept.layout, file.columns, format)
      return saveAnalysisFile(sources.saveDialog, `${file.table} pivot`, format, data)
    },
    async saveSql(fileIds, query) {
      const answer = await runSql(fileIds, query)
      const table = openedFiles.list().find((file) => file.id === fileIds[0])?.table ?? 'query'
      return saveAnalysisFile(sources.saveDialog, `${table} query`, 'csv', sqlAnswerCsv(answer))
    },
    sql: runSql,
    async close(fileId) {
      for (const [pivotId, kept] of [...pivots.entries()]) if (kept.fileId === fileId) pivots.delete(pivotId)
      openedFiles.close(fileId)
    },
    dispose() {
      pivots.clear()
      openedFiles.closeAll()
    },
  }
}
