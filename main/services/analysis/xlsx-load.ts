import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api'
import type { XlsxColumnType } from '../bulk/xlsx-cell-types'
import { loadEngine, sqlIdentifier } from './engine'

/**
 * An XLSX sheet becomes a table with typed columns, as DuckDB types a CSV's: a column whose
 * every non-empty cell is a whole number is BIGINT, a number DOUBLE, a boolean BOOLEAN, a date
 * DATE (with a time of day: TIMESTAMP), anything else VARCHAR (the reader says which:
 * bulk/xlsx-cell-types.ts). Dates are the workbook's serial day numbers, counted from 1899-12-30
 * (the 1900 system, right from March 1900 on) or 1904-01-01, or ISO text.
 */

const SQL_TYPES: Record<XlsxColumnType, string> = {
  empty: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
  text: 'VARCHAR',
  mixed: 'VARCHAR',
}

/** Days from the workbook's epoch to 1970-01-01. */
const EPOCH_DAYS = { system1900: 25_569, system1904: 24_107 }
const MILLISECONDS_PER_DAY = 86_400_000

/**
 * Milliseconds since 1970 of a date cell: ISO text (the reader checked it names a real day) read
 * as UTC, or a serial day number; to the millisecond, since a serial's fraction of a day carries
 * float noise below it.
 */
function millisecondsOf(cell: string, epochDays: number): number {
  if (/^\d{4}-/.test(cell)) return Date.parse(`${cell.replace(' ', 'T')}${cell.length > 10 ? 'Z' : ''}`)
  return Math.round((Number(cell) - epochDays) * MILLISECONDS_PER_DAY)
}

type Append = (appender: DuckDBAppender, cell: string) => void

/** DuckDB's value classes, from the module the engine loaded (a static import would load DuckDB at every start). */
type DuckDBValues = Pick<Awaited<ReturnType<typeof loadEngine>>, 'DuckDBDateValue' | 'DuckDBTimestampValue'>

function appenderFor(type: XlsxColumnType, epochDays: number, { DuckDBDateValue, DuckDBTimestampValue }: DuckDBValues): Append {
  switch (type) {
    case 'integer':
      return (appender, cell) => appender.appendBigInt(BigInt(Number(cell)))
    case 'number':
      return (appender, cell) => appender.appendDouble(Number(cell))
    case 'boolean':
      return (appender, cell) => appender.appendBoolean(cell === 'true')
    case 'date':
      return (appender, cell) => appender.appendDate(new DuckDBDateValue(Math.floor(millisecondsOf(cell, epochDays) / MILLISECONDS_PER_DAY)))
    case 'timestamp':
      return (appender, cell) => appender.appendTimestamp(new DuckDBTimestampValue(BigInt(millisecondsOf(cell, epochDays)) * 1000n))
    default:
      return (appender, cell) => appender.appendVarchar(cell)
  }
}

export interface XlsxSheetRows {
  header: string[]
  rows: string[][]
  /** One per header column; a missing one is text. */
  columnTypes: readonly XlsxColumnType[]
  date1904: boolean
}

export async function loadXlsxRows(connection: DuckDBConnection, table: string, sheet: XlsxSheetRows): Promise<void> {
  const names = sheet.header.map((name, index) => (name === '' ? `column${index + 1}` : name))
  const types = names.map((_name, index) => sheet.columnTypes[index] ?? 'text')
  const columns = names.map((name, index) => `${sqlIdentifier(name)} ${SQL_TYPES[types[index] ?? 'text']}`)
  await connection.run(`CREATE TABLE ${sqlIdentifier(table)} (${columns.join(', ')})`)
  const epochDays = sheet.date1904 ? EPOCH_DAYS.system1904 : EPOCH_DAYS.system1900
  const values = await loadEngine()
  const appends = types.map((type) => appenderFor(type, epochDays, values))
  const typed = types.map((type) => SQL_TYPES[type] !== 'VARCHAR')
  const appender = await connection.createAppender(table)
  for (const cells of sheet.rows) {
    for (let index = 0; index < names.length; index++) {
      const cell = cells[index] ?? ''
      // A typed column's blank cell (spaces only) is no value, as an empty one is.
      if (cell === '' || (typed[index] === true && cell.trim() === '')) appender.appendNull()
      else appends[index]!(appender, cell)
    }
    appender.endRow()
  }
  appender.closeSync()
}

/** Whether any column mixes numbers and text (read as text: the file's notes say so). */
export const mixesNumbersAndText = (types: readonly XlsxColumnType[]): boolean => types.includes('mixed')
