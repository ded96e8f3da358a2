import { strFromU8, unzipSync, type UnzipFileInfo } from 'fflate'
import { formatBytes } from '../../../common/format'
import { IMPORT_LIMITS, MAX_IMPORT_ROWS, type ImportTable } from './read-table'

/**
 * Stage 1 of an import for an XLSX workbook: its first sheet read into rows, as a CSV would be.
 * A minimal reader of the sheet's XML, enough for data: shared strings, inline strings, numbers,
 * booleans; a cell holding a formula comes through as `=formula`, so the cell stage refuses it
 * as it refuses a formula typed in a CSV. Bounded like a CSV: the file's bytes, each part's
 * unzipped size (a zip bomb stops before it is inflated), cells per row, characters per cell,
 * rows. Row numbers are the sheet's own, as the spreadsheet shows them.
 */

export const XLSX_LIMITS = {
  maxBytes: 32 * 1024 * 1024,
  /** What one part of the workbook (the sheet, the shared strings) may unzip to. */
  maxPartBytes: 256 * 1024 * 1024,
  maxCellChars: IMPORT_LIMITS.maxCellChars,
  maxCells: IMPORT_LIMITS.maxCells,
  maxRows: MAX_IMPORT_ROWS,
}
export type XlsxLimits = typeof XLSX_LIMITS

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10)
      return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name] ?? whole
  })
}

/** The text of every `<t>` inside `xml` (a shared string's runs, an inline string), phonetic hints left out. */
function textOf(xml: string): string {
  let text = ''
  for (const match of xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '').matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)) text += match[1] ?? ''
  return decodeXml(text)
}

const attribute = (attributes: string, name: string): string | undefined => new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attributes)?.[1]

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

class TableProblem extends Error {}

/** Said before reading a workbook whose size on disk is already past the bound. */
export function xlsxTooLarge(limits: XlsxLimits = XLSX_LIMITS): string {
  return `The file is larger than ${formatBytes(limits.maxBytes)}; split it into smaller files and import each.`
}

function unzip(bytes: Uint8Array, names: ReadonlySet<string>, limits: XlsxLimits): Record<string, string> {
  const filter = (file: UnzipFileInfo): boolean => {
    if (!names.has(file.name)) return false
    if (file.originalSize > limits.maxPartBytes) {
      throw new TableProblem(`The workbook's ${file.name} unzips to more than ${formatBytes(limits.maxPartBytes)}; save a smaller sheet, or export it as CSV.`)
    }
    return true
  }
  let parts
  try {
    parts = unzipSync(bytes, { filter })
  } catch (error) {
    if (error instanceof TableProblem) throw error
    throw new TableProblem('The file is not a readable XLSX workbook; save it again from the spreadsheet, or export it as CSV.')
  }
  return Object.fromEntries(Object.entries(parts).map(([name, data]) => [name, strFromU8(data)]))
}

/** The path of the workbook's first sheet, from workbook.xml and its relationships. */
function firstSheetPath(workbook: string | undefined, relationships: string | undefined): string {
  const fallback = 'xl/worksheets/sheet1.xml'
  const sheet = workbook === undefined ? undefined : /<sheet\b([^>]*)\/?>/.exec(workbook)?.[1]
  const id = sheet === undefined ? undefined : attribute(sheet, 'r:id')
  if (id === undefined || relationships === undefined) return fallback
  for (const match of relationships.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const attributes = match[1] ?? ''
    if (attribute(attributes, 'Id') !== id) continue
    const target = attribute(attributes, 'Target')
    if (target === undefined) return fallback
    return target.startsWith('/') ? target.slice(1) : `xl/${target}`
  }
  return fallback
}

function readSheet(sheet: string, shared: readonly string[], limits: XlsxLimits): Array<{ row: number; cells: string[] }> {
  const rows: Array<{ row: number; cells: string[] }> = []
  let previous = 0
  for (const rowMatch of sheet.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const number = Number(attribute(rowMatch[1] ?? '', 'r') ?? previous + 1)
    previous = number
    const cells: string[] = []
    for (const cellMatch of (rowMatch[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attributes = cellMatch[1] ?? ''
      const inner = cellMatch[2] ?? ''
      const reference = attribute(attributes, 'r')
      const column = reference === undefined ? cells.length : columnIndex(reference)
      if (column < 0 || column >= limits.maxCells)
        throw new TableProblem(`Row ${number} has more than ${limits.maxCells} cells; only a table of data can be imported.`)
      const raw = /<v\b[^>]*>([\s\S]*?)<\/v>/.exec(inner)?.[1]
      // A shared formula's other cells have an empty <f/>: still a formula, shown by its value.
      const formula = /<f\b/.test(inner) ? (/<f\b[^>]*>([\s\S]*?)<\/f>/.exec(inner)?.[1] ?? raw ?? '') : undefined
      const type = attribute(attributes, 't')
      let value: string
      if (formula !== undefined) value = `=${decodeXml(formula)}`
      else if (type === 's') value = shared[Number(raw)] ?? ''
      else if (type === 'inlineStr') value = textOf(inner)
      else if (type === 'b') value = raw === '1' ? 'true' : raw === '0' ? 'false' : ''
      else value = decodeXml(raw ?? '')
      if (value.length > limits.maxCellChars)
        throw new TableProblem(`Row ${number} has a cell longer than ${limits.maxCellChars.toLocaleString('en-US')} characters.`)
      while (cells.length < column) cells.push('')
      cells[column] = value
    }
    // A blank line is not a record.
    if (cells.every((cell) => cell.trim() === '')) continue
    if (rows.length > limits.maxRows)
      throw new TableProblem(`The sheet has more than ${limits.maxRows.toLocaleString('en-US')} rows; split it into smaller files and import each.`)
    rows.push({ row: number, cells })
  }
  return rows
}

export function readXlsxTable(bytes: Uint8Array, limits: XlsxLimits = XLSX_LIMITS): ImportTable {
  const table = (header: string[], rows: ImportTable['rows'], problems: string[]): ImportTable => ({ separator: ',', header, rows, problems, scanned: 0 })
  try {
    if (bytes.length > limits.maxBytes) throw new TableProblem(xlsxTooLarge(limits))
    const book = unzip(bytes, new Set(['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml']), limits)
    const sheetPath = firstSheetPath(book['xl/workbook.xml'], book['xl/_rels/workbook.xml.rels'])
    const sheet = unzip(bytes, new Set([sheetPath]), limits)[sheetPath]
    if (sheet === undefined) throw new TableProblem('The workbook has no sheet to read; save it again from the spreadsheet, or export it as CSV.')
    const shared = [...(book['xl/sharedStrings.xml'] ?? '').matchAll(/<si\b[^>]*>([\s\S]*?)<\/si>/g)].map((match) => textOf(match[1] ?? ''))
    const [header, ...body] = readSheet(sheet, shared, limits)
    if (header === undefined) throw new TableProblem('The sheet is empty: its first row must name the columns, such as name or external_id.')
    const width = header.cells.length
    // A sheet leaves out empty cells at the end of a row: they are empty, not missing.
    const rows = body.map(({ row, cells }) => ({ row, cells: cells.length < width ? [...cells, ...Array<string>(width - cells.length).fill('')] : cells }))
    return table(
      header.cells.map((name) => name.trim()),
      rows,
      [],
    )
  } catch (error) {
    if (error instanceof TableProblem) return table([], [], [error.message])
    throw error
  }
}
