import { randomUUID } from 'node:crypto'
import { open, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { formatBytes } from '../../../common/format'
import { XLSX_LIMITS } from '../bulk/read-xlsx'
import { readXlsxFile } from '../bulk/xlsx-in-worker'
import { AppError } from '../errors'
import { createLockedDatabase, ENGINE_LIMITS, engineProblem, type EngineLimits, type LockedDatabase } from './engine'
import { describeTable, identityOf, loadText, safeTableName, type AnalysisColumn } from './table-load'
import { loadXlsxRows, mixesNumbersAndText } from './xlsx-load'

/**
 * The files opened for analysis, registered in main only: the page names one by an opaque id,
 * never a path. Each file is loaded into a locked database of its own (engine.ts), as one table
 * named for the SQL box (`sales_november`, or `t1` when the file name gives no safe name). A SQL
 * query over several files gets a database holding them all, built when first asked.
 */

export type FileKind = 'csv' | 'tsv' | 'xlsx'

export type { AnalysisColumn } from './table-load'

export interface OpenedFileInfo {
  id: string
  /** The file's name, no folder: what the page shows. */
  name: string
  /** The table name in the SQL box. */
  table: string
  columns: AnalysisColumn[]
  rowCount: number
  /** Sentences about how the file was read (other sheets left out, a column of mixed types read as text). */
  notes: string[]
}

export interface AnalysisFileLimits {
  /** A CSV/TSV past this size is refused (the engine holds it in memory). */
  maxTextBytes: number
}

export const ANALYSIS_FILE_LIMITS: AnalysisFileLimits = { maxTextBytes: 1024 * 1024 * 1024 }

/** Files open at once: each is a database in main's memory (a 3 MB export held about 12 MB). */
export const MAX_OPEN_FILES = 16

export interface OpenedFiles {
  /** Reads and registers the file at `filePath` (a path main's dialog or an export job gave). */
  open(filePath: string): Promise<OpenedFileInfo>
  list(): OpenedFileInfo[]
  info(id: string): OpenedFileInfo
  /** The file's own database: its pivots run here. */
  database(id: string): LockedDatabase
  /** A database holding all these files (one file: its own database). */
  databaseFor(ids: readonly string[]): Promise<LockedDatabase>
  close(id: string): void
  closeAll(): void
}

interface Registered {
  info: OpenedFileInfo
  /** identityOf(its path) when it was opened: opening the same file again gives this one. */
  identity: string | null
  load: (connection: DuckDBConnection) => Promise<void>
  database: LockedDatabase
}

const MIXED_COLUMNS = 'Some columns mix numbers and text; they were read as text (sums and averages use the values that are numbers).'

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]

export function fileKindOf(fileName: string): FileKind | null {
  const extension = path.extname(fileName).toLowerCase()
  return extension === '.csv' || extension === '.txt' ? 'csv' : extension === '.tsv' || extension === '.tab' ? 'tsv' : extension === '.xlsx' ? 'xlsx' : null
}

/** Refuses a file whose first bytes say it is not what its extension says. */
function checkContent(name: string, kind: FileKind, head: Uint8Array): void {
  const isZip = ZIP_MAGIC.every((byte, index) => head[index] === byte)
  if (kind === 'xlsx' && !isZip)
    throw new AppError('bad_input', `${name} is not an XLSX workbook (its content is not a workbook's); save it again from the spreadsheet, or as CSV.`)
  if (kind === 'xlsx') return
  if (isZip)
    throw new AppError(
      'bad_input',
      `${name} is a zip archive (a workbook or a compressed file), not a ${kind.toUpperCase()}; unzip it, or save it as .xlsx and open that.`,
    )
  if (head.includes(0))
    throw new AppError('bad_input', `${name} holds binary data, not ${kind.toUpperCase()} text; open the ${kind.toUpperCase()} export itself.`)
}

export interface OpenedFilesOptions {
  limits?: AnalysisFileLimits
  engineLimits?: EngineLimits
  maxOpenFiles?: number
}

export function createOpenedFiles({
  limits = ANALYSIS_FILE_LIMITS,
  engineLimits = ENGINE_LIMITS,
  maxOpenFiles = MAX_OPEN_FILES,
}: OpenedFilesOptions = {}): OpenedFiles {
  const files = new Map<string, Registered>()
  /** Opens under way, by identity: a second open of the same file waits for the first. */
  const opening = new Map<string, Promise<OpenedFileInfo>>()
  let combined: { key: string; database: LockedDatabase } | null = null
  let counter = 0

  const dropCombined = (): void => {
    combined?.database.close()
    combined = null
  }

  const tableFor = (fileName: string): string => {
    const taken = new Set([...files.values()].map((file) => file.info.table))
    const wanted = safeTableName(fileName)
    if (wanted !== '' && !taken.has(wanted)) return wanted
    for (;;) {
      counter++
      if (!taken.has(`t${counter}`)) return `t${counter}`
    }
  }

  const registered = (id: string): Registered => {
    const file = files.get(id)
    if (file === undefined) throw new AppError('not_found', 'That file is not open any more; open it again.')
    return file
  }

  async function prepare(
    filePath: string,
  ): Promise<{ info: Omit<OpenedFileInfo, 'id' | 'columns' | 'rowCount'>; load: (connection: DuckDBConnection, table: string) => Promise<void> }> {
    const name = path.basename(filePath)
    const kind = fileKindOf(name)
    if (kind === null) throw new AppError('bad_input', `${name} is not a CSV, TSV or XLSX file; export the data as one of those and open it.`)
    const size = await stat(filePath).then(
      (facts) => facts.size,
      () => null,
    )
    if (size === null) throw new AppError('storage', `${name} could not be read; check that it still exists and that you may read it.`)
    const maxBytes = kind === 'xlsx' ? XLSX_LIMITS.maxBytes : limits.maxTextBytes
    if (size > maxBytes)
      throw new AppError(
        'bad_input',
        `${name} is ${formatBytes(size)}, more than the ${formatBytes(maxBytes)} the analysis opens; filter the export down (fewer days or columns) and open the smaller file.`,
      )
    if (size === 0) throw new AppError('bad_input', `${name} is empty; export it again.`)
    const handle = await open(filePath, 'r')
    const head = new Uint8Array(4096)
    try {
      await handle.read(head, 0, head.length, 0)
    } finally {
      await handle.close()
    }
    checkContent(name, kind, head.subarray(0, Math.min(size, head.length)))
    const table = tableFor(name)
    if (kind !== 'xlsx') return { info: { name, table, notes: [] }, load: (connection, tableName) => loadText(connection, tableName, filePath, kind, false) }
    const bytes = new Uint8Array(await readFile(filePath))
    // Read in a worker thread under a time bound (the sheet and its sheets' names): a crafted workbook never holds main's loop.
    const { table: sheet, sheets, columnTypes, date1904 } = await readXlsxFile(bytes)
    if (sheet.problems.length > 0) throw new AppError('bad_input', `${name}: ${sheet.problems.join(' ')}`)
    const notes = [
      ...(sheets.length > 1
        ? [
            `Only the first sheet, ${sheets[0]}, was opened; the workbook also has ${sheets.slice(1).join(', ')}. Save another sheet as its own file to analyse it.`,
          ]
        : []),
      ...(mixesNumbersAndText(columnTypes) ? [MIXED_COLUMNS] : []),
    ]
    const rows = sheet.rows.map((row) => row.cells)
    return {
      info: { name, table, notes },
      load: (connection, tableName) => loadXlsxRows(connection, tableName, { header: sheet.header, rows, columnTypes, date1904 }),
    }
  }

  async function openNew(filePath: string, identity: string | null): Promise<OpenedFileInfo> {
    const { info, load } = await prepare(filePath)
    let notes = info.notes
    let load2 = (connection: DuckDBConnection): Promise<void> => load(connection, info.table)
    let described: { columns: AnalysisColumn[]; rowCount: number } = { columns: [], rowCount: 0 }
    const build = (): Promise<LockedDatabase> =>
      createLockedDatabase(async (connection) => {
        await load2(connection)
        described = await describeTable(connection, info.table)
      }, engineLimits)
    let database: LockedDatabase
    try {
      database = await build()
    } catch (error) {
      const text = error instanceof Error ? error.message : ''
      if (!/^Conversion Error/.test(text) || fileKindOf(info.name) === 'xlsx') throw loadProblem(info.name, error, engineLimits)
      // A column's first rows looked like numbers and a later one is not: read the whole file to type it.
      load2 = (connection) => loadText(connection, info.table, filePath, fileKindOf(info.name) === 'tsv' ? 'tsv' : 'csv', true)
      database = await build().catch((again: unknown) => {
        throw loadProblem(info.name, again, engineLimits)
      })
      notes = [...notes, MIXED_COLUMNS]
    }
    if (described.columns.length === 0 || (described.rowCount === 0 && described.columns.length <= 1 && described.columns[0]?.name === 'column0')) {
      database.close()
      throw new AppError('bad_input', `${info.name} holds no rows; its first line must name the columns, and the data follow it.`)
    }
    const opened: OpenedFileInfo = { id: randomUUID(), ...info, notes, ...described }
    files.set(opened.id, { info: opened, identity, load: load2, database })
    return opened
  }

  return {
    async open(filePath) {
      const identity = await identityOf(filePath)
      const same = identity === null ? undefined : [...files.values()].find((file) => file.identity === identity)
      if (same !== undefined) return same.info
      const pending = identity === null ? undefined : opening.get(identity)
      if (pending !== undefined) return pending
      if (files.size + opening.size >= maxOpenFiles)
        throw new AppError(
          'conflict',
          `At most ${maxOpenFiles} files can be open for analysis at once; close one you no longer need, then open this one again.`,
        )
      const opened = openNew(filePath, identity)
      if (identity === null) return opened
      opening.set(identity, opened)
      try {
        return await opened
      } finally {
        opening.delete(identity)
      }
    },
    list: () => [...files.values()].map((file) => file.info),
    info: (id) => registered(id).info,
    database: (id) => registered(id).database,
    async databaseFor(ids) {
      const unique = [...new Set(ids)]
      if (unique.length === 0) throw new AppError('bad_input', 'Pick at least one opened file to query.')
      const members = unique.map(registered)
      if (members.length === 1) return members[0]!.database
      const key = unique.sort().join(',')
      if (combined?.key === key) return combined.database
      dropCombined()
      const database = await createLockedDatabase(async (connection) => {
        for (const member of members) await member.load(connection)
      }, engineLimits).catch((error: unknown) => {
        throw engineProblem(error, engineLimits.timeLimitMs)
      })
      combined = { key, database }
      return database
    },
    close(id) {
      const file = files.get(id)
      if (file === undefined) return
      files.delete(id)
      if (combined?.key.split(',').includes(id)) dropCombined()
      file.database.close()
    },
    closeAll() {
      dropCombined()
      for (const file of files.values()) file.database.close()
      files.clear()
    },
  }
}

function loadProblem(name: string, error: unknown, limits: EngineLimits): AppError {
  if (error instanceof AppError) return error
  const text = error instanceof Error ? error.message : String(error)
  if (/^(Invalid Input|Conversion|Sniffer) Error/i.test(text) || /CSV Error/i.test(text))
    return new AppError(
      'bad_input',
      `${name} could not be read as a table (its lines do not share one layout of columns); open it in a spreadsheet, save it as CSV, and open that.`,
    )
  return engineProblem(error, limits.timeLimitMs)
}
