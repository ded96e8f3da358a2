import { AppError } from '../errors'
import type { BoundedRows, LockedDatabase } from './engine'
import type { SqlAnswerLimits, StatementFacts } from './sql-answer'

/**
 * The power users' SQL box: one read-only statement over the opened files (each a table). The
 * database it runs in is locked (engine.ts), so a query naming a file, a URL, an extension or a
 * setting is refused by the engine itself; this adds what locking does not: one statement, a
 * SELECT (or WITH … SELECT) only; the engine adds the answer's bounds and the time limit.
 */

export const SQL_BOX_LIMITS = { maxQueryChars: 20_000 } as const

/** The statement an empty query's sentence suggests: over a table that is there (`t1` may not be). */
export function exampleQuery(tables: readonly string[]): string {
  return `SELECT * FROM ${tables[0] ?? 'the_file'} LIMIT 10`
}

export async function runSqlBox(
  database: LockedDatabase,
  query: string,
  limits: Partial<SqlAnswerLimits> = {},
  /** The opened files' table names, for the sentences. */
  tables: readonly string[] = [],
): Promise<BoundedRows> {
  const text = query.trim()
  if (text === '') {
    const named = tables.length > 0 ? ` (${tables.join(', ')})` : ''
    throw new AppError('bad_input', `The query is empty; type a SELECT over the opened files${named}, such as ${exampleQuery(tables)}.`)
  }
  if (text.length > SQL_BOX_LIMITS.maxQueryChars)
    throw new AppError('bad_input', `The query is longer than ${SQL_BOX_LIMITS.maxQueryChars.toLocaleString('en-US')} characters; shorten it.`)
  return database.readChecked(text, oneSelect, limits)
}

function oneSelect({ statements, isSelect }: StatementFacts): void {
  if (statements !== 1) throw new AppError('bad_input', `The SQL box runs one statement at a time, and this holds ${statements}; run them one by one.`)
  if (!isSelect) throw new AppError('bad_input', 'The SQL box only reads: write a SELECT (or WITH … SELECT); the opened files cannot be changed from here.')
}
