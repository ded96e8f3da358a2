import { PREVIEW_ROWS, type ExportPreview } from '@contract'
import { AppError } from '../errors'
import type { ExportFs } from './fs'
import type { ExportRecord } from './job-history'
import { readExportHead } from './preview'
import type { ExportShell } from './signals'

/** What the page can do with a finished export: open it, show it in its folder, preview its first rows. */
export interface FileActions {
  open(jobId: string): Promise<void>
  reveal(jobId: string): Promise<void>
  preview(jobId: string): Promise<ExportPreview>
  /** The file of a finished job that is still there, for main's own use (the analysis opens it); never for the page. */
  finishedFile(jobId: string): Promise<string>
}

export interface FileActionsOptions {
  /** The job's record (history loaded), undefined when the list no longer has it. */
  recordOf(jobId: string): Promise<ExportRecord | undefined>
  shell: ExportShell | null
  fs: Pick<ExportFs, 'stat' | 'createReadStream'>
}

export function createFileActions({ recordOf, shell, fs }: FileActionsOptions): FileActions {
  /** The record of a job whose file was saved and is still there; a sentence otherwise. */
  async function finished(jobId: string): Promise<ExportRecord> {
    const record = await recordOf(jobId)
    if (record === undefined) throw new AppError('not_found', 'That export is not in the list any more.')
    if (record.state !== 'done')
      throw new AppError(
        'conflict',
        `${record.fileName} was not saved (the export ${record.state === 'running' || record.state === 'queued' ? 'has not finished' : `is ${record.state}`}).`,
      )
    const stat = await fs.stat(record.path).catch(() => null)
    if (stat === null) throw new AppError('not_found', `${record.fileName} is no longer in ${record.folderName}: it was moved or deleted.`)
    return record
  }

  return {
    async open(jobId) {
      const record = await finished(jobId)
      if (!shell)
        throw new AppError('bad_input', `This window cannot open files: ${record.fileName} is in the ${record.folderName} folder of AdOps Desk's data.`)
      try {
        await shell.openFile(record.path)
      } catch (error) {
        throw new AppError('internal', `${record.fileName} could not be opened: ${error instanceof Error ? error.message : String(error)}`)
      }
    },

    async reveal(jobId) {
      const record = await finished(jobId)
      if (!shell)
        throw new AppError('bad_input', `This window cannot show folders: ${record.fileName} is in the ${record.folderName} folder of AdOps Desk's data.`)
      shell.showInFolder(record.path)
    },

    finishedFile: async (jobId) => (await finished(jobId)).path,

    async preview(jobId) {
      const record = await finished(jobId)
      if (record.format !== 'csv' && record.format !== 'tsv')
        throw new AppError('bad_input', `${record.fileName} is not a table of text; open it instead. Only csv and tsv files are previewed.`)
      try {
        return { fileName: record.fileName, ...(await readExportHead(record.path, record.format, PREVIEW_ROWS, undefined, fs)) }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        throw new AppError('storage', `${record.fileName} could not be read${typeof code === 'string' ? ` (${code})` : ''}.`)
      }
    },
  }
}
