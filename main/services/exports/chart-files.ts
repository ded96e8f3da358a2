import path from 'node:path'
import { pngProblem, svgProblem, type ChartFile, type ChartFileFormat, type PivotFile } from '@contract'
import { AppError } from '../errors'
import { csvRow } from '../files/csv'
import type { SaveFileDialog } from '../files/dialogs'
import { chooseSaveTarget, safeBaseName, writeChosenFile } from '../files/save-target'
import { exportFs, type ExportFs } from './fs'
import { pivotFileBytes } from './pivot-files'

/**
 * The current chart saved to the user's disk (`exports:saveChart`): PNG and SVG as the page
 * drew them, the chart's numbers as csv. The same rules as every file main writes: the page
 * names no path (main's save dialog, or the web host's exports folder, picks it), the format's
 * extension is forced, a file the dialog did not show is never replaced, the file is written
 * atomically, and an error names the file and its folder, never the path.
 */
export interface ChartFiles {
  /** The saved file's base name; null when the user cancels the dialog. */
  save(file: ChartFile): Promise<{ fileName: string } | null>
  /** The Pivot tab's pivot as csv or xlsx, as shown (pivot-files.ts); null when the user cancels the dialog. */
  savePivot(file: PivotFile): Promise<{ fileName: string } | null>
}

export interface ChartFilesOptions {
  dialog: SaveFileDialog
  /** Calls a test replaces to fail the write or the rename; the real file system for the rest. */
  fs?: Partial<ExportFs>
}

const FILTERS = {
  png: { name: 'PNG image', extensions: ['png'] },
  svg: { name: 'SVG image', extensions: ['svg'] },
  csv: { name: 'CSV', extensions: ['csv'] },
} satisfies Record<ChartFileFormat, { name: string; extensions: [string] }>
const XLSX_FILTER = { name: 'Excel workbook', extensions: ['xlsx'] as [string] }

/**
 * The bytes to write, checked once more here: the contract checked the content on the way in,
 * but this service may be called by other code, and the PNG is only decoded here.
 */
function bytesOf(file: ChartFile): string | Buffer {
  if (file.format === 'csv') return [file.table.columns, ...file.table.rows].map(csvRow).join('')
  const problem = file.format === 'png' ? pngProblem(file.content) : svgProblem(file.content)
  if (problem !== null) throw new AppError('bad_input', `The chart could not be saved: the ${file.format.toUpperCase()} content ${problem}.`)
  return file.format === 'png' ? Buffer.from(file.content, 'base64') : file.content
}

export function createChartFiles(options: ChartFilesOptions): ChartFiles {
  const fs = exportFs(options.fs)
  async function write(name: string, filter: { name: string; extensions: [string] }, data: string | Uint8Array): Promise<{ fileName: string } | null> {
    const target = await chooseSaveTarget(options.dialog, safeBaseName(name), filter, fs)
    if (target === null) return null
    // The sentence of a failure reaches the page: names, not the path.
    await writeChosenFile(target, data, fs)
    return { fileName: path.basename(target) }
  }
  return {
    // Checked before asking where: content that cannot be saved opens no dialog.
    save: async (file) => write(file.name, FILTERS[file.format], bytesOf(file)),
    savePivot: async (file) => write(file.name, file.format === 'csv' ? FILTERS.csv : XLSX_FILTER, pivotFileBytes(file)),
  }
}
