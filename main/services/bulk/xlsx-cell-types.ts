import { attribute, decodeXml, elements, firstOf, startTags } from './xlsx-sheet-scanner'

/**
 * What each column of a sheet holds, from its cells' own types, so the analysis can type a
 * workbook's columns as DuckDB's sniffing types a CSV's (the bulk import reads the text only).
 * A cell is a number when it has no `t` (or `t="n"`), a boolean for `t="b"`, text for strings,
 * formulas and errors; a number whose style's number format is a date format (styles.xml: the
 * cell's `s` indexes `cellXfs`, whose `numFmtId` is a built-in date format or a custom
 * `formatCode` with day, month, year, hour or second letters) is a date (a time of day too: a
 * timestamp), and so is a text cell holding an ISO date (`2026-11-01`, `2026-11-01 13:00`). Dates
 * are serial day numbers from the workbook's epoch (1900 or 1904 system) or that ISO text.
 */

export type XlsxColumnType = 'empty' | 'integer' | 'number' | 'boolean' | 'date' | 'timestamp' | 'text' | 'mixed'
type CellKind = 'integer' | 'number' | 'boolean' | 'date' | 'timestamp' | 'text'
export type DateStyle = 'date' | 'timestamp' | null

/** Excel's built-in number formats that show a date (14–22, 45–47, and the East Asian 27–36, 50–58). */
const BUILTIN_DATES = new Map<number, DateStyle>([
  ...[14, 15, 16, 17, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58].map((id): [number, DateStyle] => [id, 'date']),
  ...[18, 19, 20, 21, 22, 32, 33, 45, 46, 47, 55, 56].map((id): [number, DateStyle] => [id, 'timestamp']),
])

/** A custom format code's kind: its quoted text, escapes and bracketed parts (colours, locales) left out. */
export function formatCodeStyle(code: string): DateStyle {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '').toLowerCase()
  if (!/[dmy]/.test(bare) && !/[hs]/.test(bare)) return null
  if (bare.includes('general')) return null
  return /[hs]/.test(bare) ? 'timestamp' : 'date'
}

/** The date style of each cell style index (`s`), from styles.xml; empty when there is none. */
export function dateStyles(styles: string | undefined): DateStyle[] {
  if (styles === undefined) return []
  const custom = new Map<number, DateStyle>()
  const formats = firstOf(elements(styles, 'numFmts', 'xl/styles.xml'))
  for (const tag of startTags(formats?.inner ?? '', 'numFmt', 'xl/styles.xml'))
    custom.set(Number(attribute(tag, 'numFmtId')), formatCodeStyle(decodeXml(attribute(tag, 'formatCode') ?? '')))
  const cellFormats = firstOf(elements(styles, 'cellXfs', 'xl/styles.xml'))
  return [...startTags(cellFormats?.inner ?? '', 'xf', 'xl/styles.xml')].map((tag) => {
    const id = Number(attribute(tag, 'numFmtId') ?? 0)
    return custom.get(id) ?? BUILTIN_DATES.get(id) ?? null
  })
}

/** Whether workbook.xml says its dates count from 1904 (`<workbookPr date1904="1"/>`). */
export function usesDate1904(workbook: string | undefined): boolean {
  const properties = workbook === undefined ? undefined : firstOf(startTags(workbook, 'workbookPr', 'xl/workbook.xml'))
  const flag = properties === undefined ? undefined : attribute(properties, 'date1904')
  return flag === '1' || flag === 'true'
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,6})?)?$/

/** Whether year, month and day name a real day (30 February does not). */
function realDay(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
  return date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day)
}

/** A text cell that is an ISO date or date and time (how exports write time buckets) is one, as DuckDB's CSV sniffing reads it. */
function textKind(text: string): CellKind {
  const date = ISO_DATE.exec(text) ?? ISO_TIMESTAMP.exec(text)
  if (date === null || !realDay(date[1]!, date[2]!, date[3]!)) return 'text'
  return date.length > 4 ? 'timestamp' : 'date'
}

/** A cell's kind from its attributes and the text the reader made of it ('' is no cell). */
export function cellKind(attributes: string, text: string, styles: readonly DateStyle[]): CellKind | null {
  if (text.trim() === '') return null
  const type = attribute(attributes, 't')
  if (type === 'b') return 'boolean'
  if (text.startsWith('=') || type === 'e') return 'text'
  if (type !== undefined && type !== 'n') return textKind(text)
  const value = Number(text)
  if (!Number.isFinite(value)) return 'text'
  const style = styles[Number(attribute(attributes, 's') ?? 0)] ?? null
  // A date is a day count from the epoch: a negative one shows as ##### in Excel, and is read as the number it is.
  if (style !== null && value >= 0) return style === 'timestamp' || !Number.isInteger(value) ? 'timestamp' : 'date'
  return Number.isSafeInteger(value) ? 'integer' : 'number'
}

const NUMBERS = new Set<XlsxColumnType>(['integer', 'number'])
const DATES = new Set<XlsxColumnType>(['date', 'timestamp'])

/**
 * A column's type with one more cell: numbers widen, dates widen, numbers with text are 'mixed',
 * other mixes are text (dates with numbers too: a date may be ISO text, which is no number).
 */
export function widen(column: XlsxColumnType, cell: CellKind | null): XlsxColumnType {
  if (cell === null || column === cell || column === 'mixed') return column
  if (column === 'empty') return cell
  if (NUMBERS.has(column) && NUMBERS.has(cell)) return 'number'
  if (DATES.has(column) && DATES.has(cell)) return 'timestamp'
  if ((column === 'text' && NUMBERS.has(cell)) || (NUMBERS.has(column) && cell === 'text')) return 'mixed'
  return 'text'
}
