import { formatBytes } from '../../../common/format'
import { IMPORT_LIMITS, MAX_IMPORT_ROWS, type ImportTable } from './read-table'
import { XlsxProblem } from './xlsx-problem'
import { cellKind, dateStyles, usesDate1904, widen, type DateStyle, type XlsxColumnType } from './xlsx-cell-types'
import { attribute, decodeXml, elements, firstOf, firstSheetPath, sharedStrings, sheetNames, textOf } from './xlsx-sheet-scanner'
import { unzipParts } from './xlsx-unzip'

/**
 * Stage 1 of an import for an XLSX workbook: its first sheet read into rows, as a CSV would be.
 * A minimal reader of the sheet's XML, enough for data: shared strings, inline strings, numbers,
 * booleans; a cell holding a formula comes through as `=formula`, so the cell stage refuses it
 * as it refuses a formula typed in a CSV. Bounded like a CSV: the file's bytes, the entries of its
 * zip, each part's inflated size (counted while it inflates, never taken from the zip's headers:
 * xlsx-unzip.ts), cells per row, characters per cell, rows; the XML is read in one pass
 * (xlsx-sheet-scanner.ts), a tag never closed is a sentence. Row numbers are the sheet's own,
 * as the spreadsheet shows them. The app and the command line run this in a worker thread with a
 * time bound (xlsx-in-worker.ts), so a crafted file never holds main's event loop.
 */

export const XLSX_LIMITS = {
  maxBytes: 32 * 1024 * 1024,
  /** What one part of the workbook (the sheet, the shared strings) may unzip to. */
  maxPartBytes: 256 * 1024 * 1024,
  /** How many entries the workbook's zip may list (a workbook of data holds a few dozen). */
  maxEntries: 10_000,
  maxCellChars: IMPORT_LIMITS.maxCellChars,
  maxCells: IMPORT_LIMITS.maxCells,
  maxRows: MAX_IMPORT_ROWS,
}
export type XlsxLimits = typeof XLSX_LIMITS

/** A workbook read: its first sheet as a table (or the problems that stopped it), and its sheets' names in order. */
export interface XlsxWorkbook {
  table: ImportTable
  sheets: string[]
  /** What each header column's cells hold (xlsx-cell-types.ts): the analysis types its columns by it. */
  columnTypes: XlsxColumnType[]
  /** The workbook counts its date serials from 1904, not 1900. */
  date1904: boolean
}

/** "BC12" → 54 (0-based column); -1 when there is no column letter. */
function columnIndex(reference: string): number {
  let index = 0
  let letters = 0
  for (const character of reference) {
    const code = character.toUpperCase().charCodeAt(0)
    if (code < 65 || code > 90) break
    index = index * 26 + (code - 64)
    letters++
  }
  return letters === 0 ? -1 : index - 1
}

/** Said before reading a workbook whose size on disk is already past the bound. */
export function xlsxTooLarge(limits: XlsxLimits = XLSX_LIMITS): string {
  return `The file is larger than ${formatBytes(limits.maxBytes)}; split it into smaller files and import each.`
}

function cellValue(attributes: string, inner: string, shared: readonly string[], part: string): string {
  const value = firstOf(elements(inner, 'v', part))
  const raw = value?.inner
  const type = attribute(attributes, 't')
  const formulaTag = firstOf(elements(inner, 'f', part))
  // A shared formula's other cells have an empty <f/>: still a formula, shown by its value.
  if (formulaTag !== undefined) return `=${decodeXml(formulaTag.inner ?? raw ?? '')}`
  if (type === 's') return shared[Number(raw)] ?? ''
  if (type === 'inlineStr') return textOf(inner, part)
  if (type === 'b') return raw === '1' ? 'true' : raw === '0' ? 'false' : ''
  return decodeXml(raw ?? '')
}

interface SheetRead {
  rows: Array<{ row: number; cells: string[] }>
  /** Each column's type over the rows after the first (the header). */
  types: XlsxColumnType[]
}

function readSheet(sheet: string, part: string, shared: readonly string[], styles: readonly DateStyle[], limits: XlsxLimits): SheetRead {
  const rows: Array<{ row: number; cells: string[] }> = []
  const types: XlsxColumnType[] = []
  let previous = 0
  for (const row of elements(sheet, 'row', part)) {
    const number = Number(attribute(row.attributes, 'r') ?? previous + 1)
    previous = number
    const cells: string[] = []
    for (const cell of elements(row.inner ?? '', 'c', part)) {
      const reference = attribute(cell.attributes, 'r')
      const column = reference === undefined ? cells.length : columnIndex(reference)
      if (column < 0 || column >= limits.maxCells)
        throw new XlsxProblem(`Row ${number} has more than ${limits.maxCells} cells; only a table of data can be imported.`)
      const value = cellValue(cell.attributes, cell.inner ?? '', shared, part)
      if (value.length > limits.maxCellChars)
        throw new XlsxProblem(`Row ${number} has a cell longer than ${limits.maxCellChars.toLocaleString('en-US')} characters.`)
      while (cells.length < column) cells.push('')
      cells[column] = value
      // The first row kept is the header: its names are not data.
      if (rows.length > 0) types[column] = widen(types[column] ?? 'empty', cellKind(cell.attributes, value, styles))
    }
    // A blank line is not a record.
    if (cells.every((cell) => cell.trim() === '')) continue
    if (rows.length > limits.maxRows)
      throw new XlsxProblem(`The sheet has more than ${limits.maxRows.toLocaleString('en-US')} rows; split it into smaller files and import each.`)
    rows.push({ row: number, cells })
  }
  return { rows, types }
}

const tableOf = (header: string[], rows: ImportTable['rows'], problems: string[]): ImportTable => ({ separator: ',', header, rows, problems, scanned: 0 })

/** The workbook's first sheet and its sheets' names, on the calling thread (the worker's job: xlsx-worker.ts). */
export function readXlsxWorkbook(bytes: Uint8Array, limits: XlsxLimits = XLSX_LIMITS): XlsxWorkbook {
  try {
    if (bytes.length > limits.maxBytes) throw new XlsxProblem(xlsxTooLarge(limits))
    const book = unzipParts(bytes, new Set(['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml', 'xl/styles.xml']), limits)
    const workbook = book['xl/workbook.xml']
    const sheetPath = firstSheetPath(workbook, book['xl/_rels/workbook.xml.rels'])
    const sheet = unzipParts(bytes, new Set([sheetPath]), limits)[sheetPath]
    if (sheet === undefined) throw new XlsxProblem('The workbook has no sheet to read; save it again from the spreadsheet, or export it as CSV.')
    const shared = sharedStrings(book['xl/sharedStrings.xml'] ?? '', 'xl/sharedStrings.xml')
    const read = readSheet(sheet, sheetPath, shared, dateStyles(book['xl/styles.xml']), limits)
    const [header, ...body] = read.rows
    if (header === undefined) throw new XlsxProblem('The sheet is empty: its first row must name the columns, such as name or external_id.')
    const width = header.cells.length
    // A sheet leaves out empty cells at the end of a row: they are empty, not missing.
    const rows = body.map(({ row, cells }) => ({ row, cells: cells.length < width ? [...cells, ...Array<string>(width - cells.length).fill('')] : cells }))
    const table = tableOf(
      header.cells.map((name) => name.trim()),
      rows,
      [],
    )
    const columnTypes = header.cells.map((_name, column) => read.types[column] ?? 'empty')
    return { table, sheets: workbook === undefined ? [] : sheetNames(workbook, 'xl/workbook.xml'), columnTypes, date1904: usesDate1904(workbook) }
  } catch (error) {
    if (error instanceof XlsxProblem) return { table: tableOf([], [], [error.message]), sheets: [], columnTypes: [], date1904: false }
    throw error
  }
}

/** The first sheet as a table, on the calling thread: what tests and the pivot files' check read. */
export function readXlsxTable(bytes: Uint8Array, limits: XlsxLimits = XLSX_LIMITS): ImportTable {
  return readXlsxWorkbook(bytes, limits).table
}
