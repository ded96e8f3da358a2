import type * as DuckDB from '@duckdb/node-api'
import type { DuckDBConnection, DuckDBTypeId } from '@duckdb/node-api'
import { formatBytes } from '../../../common/format'
import { AppError } from '../errors'
import { cellOf, sqlString, timeLimitPassed, type BoundedRows, type CellValue } from './engine-values'

/**
 * The SQL box's answer, read within bounds that hold in main's memory. DuckDB's memory_limit
 * covers its own buffers, not the JavaScript strings an answer becomes (`repeat('x', 1e8)` over 30
 * rows took main to 5–7 GB). So the user's query runs inside one of ours, `query(…)`, which hands
 * every column that is not a fixed-size value (numbers, dates, times) back as text cut in the
 * engine to the cell bound; and the answer is read a chunk, then a row, at a time, counted in
 * bytes, and no longer read once the byte bound or the row cap is passed.
 */

export interface SqlAnswerLimits {
  rowCap: number
  timeLimitMs: number
  /** The answer's cells and column names in UTF-8 bytes: past it the rest is not read (said). */
  maxAnswerBytes: number
  /** A longer cell (or column name) is cut to this many characters, ending in …, and said. */
  maxCellChars: number
  /** More columns are refused with a sentence. */
  maxColumns: number
}

export const SQL_ANSWER_LIMITS: Omit<SqlAnswerLimits, 'rowCap' | 'timeLimitMs'> = {
  maxAnswerBytes: 64 * 1024 * 1024,
  maxCellChars: 32_768,
  maxColumns: 2_000,
}

export interface StatementFacts {
  statements: number
  isSelect: boolean
}

/** Throws the sentence for a statement that is not to run (sql-box.ts: one SELECT). */
export type StatementCheck = (facts: StatementFacts) => void

/** The types whose values are a few bytes whatever the query: handed back as they are. */
function fixedSizeTypes({ DuckDBTypeId: id }: typeof DuckDB): ReadonlySet<DuckDBTypeId> {
  return new Set([
    id.BOOLEAN,
    id.TINYINT,
    id.SMALLINT,
    id.INTEGER,
    id.BIGINT,
    id.UTINYINT,
    id.USMALLINT,
    id.UINTEGER,
    id.UBIGINT,
    id.HUGEINT,
    id.UHUGEINT,
    id.FLOAT,
    id.DOUBLE,
    id.DECIMAL,
    id.DATE,
    id.TIME,
    id.TIME_TZ,
    id.TIMESTAMP,
    id.TIMESTAMP_S,
    id.TIMESTAMP_MS,
    id.TIMESTAMP_NS,
    id.TIMESTAMP_TZ,
    id.INTERVAL,
    id.UUID,
    id.SQLNULL,
  ])
}

/** `text` cut to `maxChars` characters (code points) and an ellipsis, or null when it is not longer. */
function cutText(text: string, maxChars: number): string | null {
  if (text.length <= maxChars) return null
  const characters = Array.from(text)
  return characters.length <= maxChars ? null : `${characters.slice(0, maxChars).join('')}…`
}

const bytesOf = (cell: CellValue): number => (typeof cell === 'string' ? Buffer.byteLength(cell) : 8)

/**
 * Prepares `sql` (its planning folds constants: it is the caller's time limit that bounds it),
 * lets `check` refuse it, then reads its answer within `limits`. `connection` is the query's own.
 */
export async function readAnswer(
  engine: typeof DuckDB,
  connection: QueryConnection,
  sql: string,
  check: StatementCheck,
  limits: SqlAnswerLimits,
): Promise<BoundedRows> {
  const extracted = await connection.extractStatements(sql)
  if (extracted.count !== 1) check({ statements: extracted.count, isSelect: false })
  const prepared = await extracted.prepare(0)
  check({ statements: 1, isSelect: prepared.statementType === engine.StatementType.SELECT })
  const count = prepared.columnCount
  if (count > limits.maxColumns)
    throw new AppError(
      'bad_input',
      `The query answers ${count.toLocaleString('en-US')} columns, more than the ${limits.maxColumns.toLocaleString('en-US')} the SQL box shows; name the columns you need.`,
    )
  const fixedSize = fixedSizeTypes(engine)
  const positions = Array.from({ length: count }, (_, index) => `c${index}`)
  const cells = positions.map((name, index) =>
    fixedSize.has(prepared.columnTypeId(index)) ? name : `left(CAST(${name} AS VARCHAR), ${limits.maxCellChars + 1})`,
  )
  let cut = 0
  const bounded = (cell: CellValue): CellValue => {
    const shorter = typeof cell === 'string' ? cutText(cell, limits.maxCellChars) : null
    if (shorter === null) return cell
    cut++
    return shorter
  }
  const columns = positions.map((_, index) => {
    const name = prepared.columnName(index)
    return cutText(name, limits.maxCellChars) ?? name
  })
  // Positional names (`answer(c0, c1…)`): the query's own may repeat or be anything.
  const result = await connection.stream(`SELECT ${cells.join(', ')} FROM query(${sqlString(sql)}) AS answer(${positions.join(', ')})`)
  const rows: CellValue[][] = []
  let bytes = columns.reduce((total, name) => total + bytesOf(name), 0)
  let truncated = false
  let fullAt: number | null = null
  reading: for (;;) {
    const chunk = await result.fetchChunk()
    if (chunk === null || chunk.rowCount === 0) break
    for (let index = 0; index < chunk.rowCount; index++) {
      if (rows.length === limits.rowCap) {
        truncated = true
        break reading
      }
      const row = chunk.getRowValues(index).map((value) => bounded(cellOf(value)))
      bytes += row.reduce<number>((total, cell) => total + bytesOf(cell), 0)
      if (bytes > limits.maxAnswerBytes) {
        truncated = true
        fullAt = rows.length
        break reading
      }
      rows.push(row)
    }
  }
  const notes = [
    cut > 0
      ? `${cut.toLocaleString('en-US')} ${cut === 1 ? 'cell was' : 'cells were'} longer than ${limits.maxCellChars.toLocaleString('en-US')} characters; ${cut === 1 ? 'it is' : 'they are'} cut, ending in …`
      : null,
    fullAt !== null
      ? `The answer reached ${formatBytes(limits.maxAnswerBytes)} after ${fullAt.toLocaleString('en-US')} rows; the rest was not read. Select fewer or shorter columns, or add a LIMIT.`
      : null,
  ].filter((note): note is string => note !== null)
  return { columns, rows, truncated, notes }
}

/** How long a query waits for the one before it, past its limit, to be stopped. */
const STOP_GRACE_MS = 2_000

const delay = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds).unref())

/** What a query needs of its connection: the engine's own, or a test's stand-in. */
export type QueryConnection = Pick<DuckDBConnection, 'extractStatements' | 'stream' | 'interrupt' | 'closeSync'>

export interface SqlQuerySources {
  engine: typeof DuckDB
  /** A new connection to the database, for one query. */
  connect: () => Promise<QueryConnection>
  /** An engine failure as a sentence (engine.ts' engineProblem). */
  problem: (error: unknown, timeLimitMs: number) => AppError
  stopGraceMs?: number
}

/** The SQL box's queries on one database. */
export interface SqlQueries {
  /** `sql` prepared, checked and read on a connection of its own, all of it under one wall-clock limit. */
  read(sql: string, check: StatementCheck, limits: SqlAnswerLimits): Promise<BoundedRows>
  /** Resolves once no query runs any more (one past its limit may still be stopping). */
  idle(): Promise<void>
}

/**
 * `connection.interrupt()` is seen between the engine's steps, not inside one function call: a
 * constant folded while preparing (`levenshtein` of two 120,000-character strings, 45 s) runs to
 * its end first. So the call answers at the limit whatever the engine does, the query's own
 * connection is closed once the engine lets go of it, and while such a query is still being
 * stopped the next one is refused: at most one runaway holds a thread per database, and the
 * file's shared connection (its pivots) never waits on it.
 */
export function createSqlQueries({ engine, connect, problem, stopGraceMs = STOP_GRACE_MS }: SqlQuerySources): SqlQueries {
  const running = new Set<Promise<void>>()
  /** Queries past their limit whose engine work has not ended yet. */
  const stopping = new Set<Promise<void>>()
  return {
    async read(sql, check, limits) {
      // An interrupt usually lands within milliseconds: the next query waits that long, not more.
      if (stopping.size > 0) await Promise.race([Promise.all([...stopping]), delay(stopGraceMs)])
      if (stopping.size > 0)
        throw new AppError('conflict', 'The last query passed the time limit and is still being stopped; wait a few seconds, then run this one.')
      const connection = await connect()
      const work = readAnswer(engine, connection, sql, check, limits)
      const settled: Promise<void> = work
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          connection.closeSync()
          running.delete(settled)
          stopping.delete(settled)
        })
      running.add(settled)
      let timer: ReturnType<typeof setTimeout> | undefined
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          if (running.has(settled)) stopping.add(settled)
          connection.interrupt()
          reject(timeLimitPassed(limits.timeLimitMs))
        }, limits.timeLimitMs)
      })
      try {
        return await Promise.race([work, limit])
      } catch (error) {
        throw problem(error, limits.timeLimitMs)
      } finally {
        clearTimeout(timer)
      }
    },
    async idle() {
      await Promise.all([...running])
    },
  }
}
