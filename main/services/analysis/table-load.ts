import { realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { AppError } from '../errors'
import { sqlIdentifier, sqlString } from './engine'

/**
 * How a chosen CSV/TSV becomes a table, by our own statements before the database is locked.
 * DuckDB reads every path it is given as a glob pattern (`*`, `?`, `[…]`): a file named `*.csv`
 * read every csv beside it and `r[0-9].csv` read `r5.csv`. So the path is escaped into a
 * pattern that matches only itself, and checked with DuckDB's own glob() to resolve to exactly
 * the chosen file before it is read. And which file a path names, so the same file opened
 * twice (an export job asked for again, a link to it) is one opened file.
 */

export interface AnalysisColumn {
  name: string
  /** DuckDB's type, as read (VARCHAR, BIGINT, DOUBLE, DATE…). */
  type: string
}

const GLOB_CHARACTERS = /[*?[]/g

/** `path` as a DuckDB glob pattern matching only itself: each `*`, `?` and `[` becomes a one-character class. */
export function globLiteral(filePath: string): string {
  return filePath.replace(GLOB_CHARACTERS, (character) => `[${character}]`)
}

/** The pattern DuckDB is given for `filePath`, once glob() says it names that file and no other. */
export async function literalPattern(connection: DuckDBConnection, filePath: string): Promise<string> {
  const pattern = globLiteral(filePath)
  const matches = (await connection.runAndReadAll(`SELECT file FROM glob(${sqlString(pattern)})`)).getRows().map(([file]) => String(file))
  const name = path.basename(filePath)
  if (matches.length === 0) throw new AppError('storage', `${name} could not be read; check that it still exists and that you may read it.`)
  if (matches.length !== 1 || path.normalize(matches[0] ?? '') !== path.normalize(filePath))
    throw new AppError(
      'bad_input',
      `${name} could not be read as itself (its name holds * ? or [ characters the engine reads as a pattern); rename it without them and open it again.`,
    )
  return pattern
}

/** The same file, whichever path names it: its real path, size and time of change. Null when it cannot be read (the open says so). */
export async function identityOf(filePath: string): Promise<string | null> {
  try {
    const real = await realpath(filePath)
    const facts = await stat(real)
    return JSON.stringify([real, facts.size, facts.mtimeMs])
  } catch {
    return null
  }
}

export function safeTableName(fileName: string): string {
  const base = path
    .basename(fileName, path.extname(fileName))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
  return /^[a-z][a-z0-9_]*$/.test(base) ? base : ''
}

export async function describeTable(connection: DuckDBConnection, table: string): Promise<{ columns: AnalysisColumn[]; rowCount: number }> {
  const columns = await connection.runAndReadAll(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ${sqlString(table)} ORDER BY ordinal_position`,
  )
  const count = await connection.runAndReadAll(`SELECT count(*) FROM ${sqlIdentifier(table)}`)
  return {
    columns: columns.getRows().map(([name, type]) => ({ name: String(name), type: String(type) })),
    rowCount: Number(count.getRows()[0]?.[0] ?? 0),
  }
}

export async function loadText(connection: DuckDBConnection, table: string, filePath: string, kind: 'csv' | 'tsv', wholeSample: boolean): Promise<void> {
  // Explicit options: a header row; short rows padded with empty cells and long rows kept
  // (strict_mode off) rather than refused; the separator sniffed unless the extension says tab.
  const options = [
    'header=true',
    'null_padding=true',
    'strict_mode=false',
    kind === 'tsv' ? "delim='\\t'" : null,
    wholeSample ? 'sample_size=-1' : null,
  ].filter(Boolean)
  const pattern = await literalPattern(connection, filePath)
  await connection.run(`CREATE TABLE ${sqlIdentifier(table)} AS SELECT * FROM read_csv(${sqlString(pattern)}, ${options.join(', ')})`)
}
