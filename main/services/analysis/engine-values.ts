import type { DuckDBValue } from '@duckdb/node-api'
import { AppError } from '../errors'

/** The engine's values and names as our statements and answers use them (engine.ts, sql-answer.ts). */

export type CellValue = string | number | boolean | null

export interface BoundedRows {
  columns: string[]
  rows: CellValue[][]
  /** More rows than the cap (or than the answer's byte bound): the rest were not read. */
  truncated: boolean
  /** Sentences about what was cut (long cells, the byte bound). */
  notes: string[]
}

/** A SQL string literal: the one place a text (a file path, by our own loader) enters a statement unbound. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** An identifier, quoted: column names come from the file, and a crafted file may name a column anything. */
export function sqlIdentifier(name: string): string {
  if (name.includes('\u0000')) throw new AppError('bad_input', 'A column name holds a NUL character; rename the column in the file and open it again.')
  return `"${name.replaceAll('"', '""')}"`
}

/** DuckDB's values as the page and the CLI take them: numbers when they fit, text otherwise. */
export function cellOf(value: DuckDBValue): CellValue {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  return String(value)
}

/** The sentence of a query stopped at the time limit. */
export function timeLimitPassed(timeLimitMs: number): AppError {
  return new AppError(
    'timeout',
    `The query ran longer than ${Math.round(timeLimitMs / 1000)} seconds and was stopped; narrow it (fewer columns, a filter, a LIMIT) and run it again.`,
  )
}
