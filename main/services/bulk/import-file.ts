import { createHash } from 'node:crypto'
import { createReadStream, promises as fs } from 'node:fs'
import path from 'node:path'
import { AppError } from '../errors'
import { readImportTable, type ImportTable } from './read-table'
import { XLSX_LIMITS, xlsxTooLarge } from './read-xlsx'
import { readXlsxFile } from './xlsx-in-worker'

/**
 * An import file the dialog chose (or the command line was given), read: the table (CSV, TSV or XLSX, within the
 * readers' bounds) and a fingerprint of its bytes, so applying the same file again while its
 * journal is unfinished resumes that journal. A file that cannot be read is a sentence naming
 * the file by its name only (no folder reaches the page).
 */
export interface ImportFile {
  fileName: string
  table: ImportTable
  /** sha256 of the file's bytes. */
  digest: string
}

export async function readImportFile(file: string): Promise<ImportFile> {
  const fileName = path.basename(file)
  const unreadable = (error: unknown): AppError => {
    const code = (error as { code?: unknown }).code
    return new AppError(
      'storage',
      `${fileName} could not be read (${String(code ?? 'unknown')}); check that it is there and that you may read it.`,
      // The system's code kept apart, for the command line's own sentence (it names the whole path).
      { errorCode: typeof code === 'string' ? code : null },
    )
  }
  const stats = await fs.stat(file).catch((error: unknown) => {
    throw unreadable(error)
  })
  if (!stats.isFile()) throw new AppError('bad_input', `${fileName} is not a file; choose the CSV, TSV or XLSX file to import.`)
  if (file.toLowerCase().endsWith('.xlsx')) {
    // A workbook is a zip read whole: its size is checked before a byte of it is read.
    if (stats.size > XLSX_LIMITS.maxBytes)
      return { fileName, table: { separator: ',', header: [], rows: [], problems: [xlsxTooLarge()], scanned: 0 }, digest: '' }
    const bytes = await fs.readFile(file).catch((error: unknown) => {
      throw unreadable(error)
    })
    // Read in a worker thread under a time bound: a crafted workbook never holds main's loop.
    const { table } = await readXlsxFile(bytes)
    return { fileName, table, digest: createHash('sha256').update(bytes).digest('hex') }
  }
  // The digest is taken from the same bytes the reader sees, in one pass.
  const hash = createHash('sha256')
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 })
  async function* hashed(): AsyncGenerator<Buffer> {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk)
      yield chunk
    }
  }
  try {
    const table = await readImportTable(hashed())
    return { fileName, table, digest: hash.digest('hex') }
  } catch (error) {
    throw unreadable(error)
  } finally {
    stream.destroy()
  }
}
