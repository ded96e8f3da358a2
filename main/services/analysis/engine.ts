import type * as DuckDB from '@duckdb/node-api'
import type { DuckDBConnection } from '@duckdb/node-api'
import { lazy } from '../../../common/lazy'
import { AppError } from '../errors'
import { cellOf, sqlIdentifier, timeLimitPassed, type BoundedRows, type CellValue } from './engine-values'
import { createSqlQueries, SQL_ANSWER_LIMITS, type SqlAnswerLimits, type StatementCheck } from './sql-answer'

export { cellOf, sqlIdentifier, sqlString, type BoundedRows, type CellValue } from './engine-values'

/**
 * The embedded analytical engine (DuckDB, in memory, in main). A database is built for the
 * opened files it holds and then locked: its tables are loaded by our own statements while the
 * file system is still reachable, then `enable_external_access=false` and
 * `lock_configuration=true` close it for good, so nothing a user types (the SQL box) reaches
 * another file, the network, an extension or the configuration. A database that must hold one
 * more file is a new database (DuckDB cannot reopen external access once it is off).
 *
 * The node-api runs queries on DuckDB's own threads (measured by the pivot bench: the event loop
 * keeps ticking while a 1,000,000-row file loads), so this stays on main's thread.
 */

export interface EngineLimits {
  /** Rows a query hands back (the SQL box); more is cut, and said. */
  rowCap: number
  /** A query running longer is interrupted. */
  timeLimitMs: number
  /** DuckDB's own memory bound per database: past it a query fails with a sentence instead of growing main. */
  memoryLimit: string
}

export const ENGINE_LIMITS: EngineLimits = { rowCap: 10_000, timeLimitMs: 30_000, memoryLimit: '2GB' }

/** One locked database: its tables are loaded, its configuration closed. */
export interface LockedDatabase {
  /** A statement of our own (the pivot's), parameters bound by position, within the time limit. */
  run(sql: string, parameters?: readonly CellValue[]): Promise<void>
  /** A query read whole (bounded by its own SQL: the pivot's windows), within the time limit. */
  read(sql: string, parameters?: readonly CellValue[]): Promise<BoundedRows>
  /**
   * A query typed by the user (the SQL box): prepared, refused by `check` or read within the
   * answer's bounds (sql-answer.ts), on a connection of its own under one wall-clock limit.
   */
  readChecked(sql: string, check: StatementCheck, limits?: Partial<SqlAnswerLimits>): Promise<BoundedRows>
  /** Closes the database once no query runs on it any more. */
  close(): void
}

/** A loader: given a connection of a not-yet-locked database, creates its tables. */
export type DatabaseLoader = (connection: DuckDBConnection) => Promise<void>

const PATH_IN_TEXT = /"[^"]*[/\\][^"]*"|'[^']*[/\\][^']*'|(?:[A-Za-z]:)?[/\\][\w.\-/\\ ]+/g

/**
 * An engine failure as a sentence. Permission and interrupt failures get our own words; a
 * query's own mistake (a column that is not there, a syntax error) keeps the engine's first line,
 * paths cut out, so a power user can fix the query.
 */
/**
 * The end of the refusal sentence: how to make a file a table. The app's words; the command line
 * puts its own in their place (`withOpeningAdvice`), since it has no Open button.
 */
export const OPEN_IT_FIRST = 'To read another file, open it in Analysis first (Open a file…).'

/** A refusal whose advice is the app's, told instead how `advice` makes a file a table (the command line). */
export function withOpeningAdvice(error: unknown, advice: string): unknown {
  if (!(error instanceof AppError) || error.code !== 'forbidden' || !error.message.endsWith(OPEN_IT_FIRST)) return error
  return new AppError('forbidden', `${error.message.slice(0, -OPEN_IT_FIRST.length)}${advice}`)
}

export function engineProblem(error: unknown, timeLimitMs: number): AppError {
  if (error instanceof AppError) return error
  const text = error instanceof Error ? error.message : String(error)
  if (/^INTERRUPT Error/i.test(text) || /interrupted/i.test(text)) return timeLimitPassed(timeLimitMs)
  if (/^Permission Error/i.test(text) || /disabled (by|through) configuration|configuration has been locked/i.test(text))
    return new AppError(
      'forbidden',
      `The analysis reads only the opened files, named as tables; it cannot open other files, the network, extensions or settings. ${OPEN_IT_FIRST}`,
    )
  if (/^Out of Memory Error/i.test(text))
    return new AppError('bad_input', 'The query needs more memory than the analysis may use; group by fewer columns or add a filter.')
  // A statement that does not parse comes wrapped by the node-api ("Failed to extract statements: Parser Error: …").
  const firstLine = (text.split('\n')[0] ?? '')
    .replace(/^Failed to extract statements: /, '')
    .replace(PATH_IN_TEXT, '…')
    .slice(0, 240)
  if (/^(Parser|Binder|Catalog|Conversion|Invalid Input|Not implemented|Constraint) Error/i.test(firstLine))
    return new AppError('bad_input', `The engine could not run the query: ${firstLine}`)
  return new AppError('internal', 'The analysis engine failed on this query; try again, or reopen the file.', { error: firstLine })
}

async function withTimeLimit<T>(connection: DuckDBConnection, timeLimitMs: number, work: () => Promise<T>): Promise<T> {
  const timer = setTimeout(() => connection.interrupt(), timeLimitMs)
  try {
    return await work()
  } catch (error) {
    throw engineProblem(error, timeLimitMs)
  } finally {
    clearTimeout(timer)
  }
}

/**
 * DuckDB's module, loaded once. Not at start: the engine's native library and its bindings cost
 * every start of the app and of the web host (each end-to-end test starts one) about a third of
 * a CPU second before the first window. The composition root loads it a moment after start
 * (ENGINE_WARM_UP_DELAY_MS), so the first analysis does not wait for it either (the pivot-paint
 * bench's first pivot took 0.45 s longer when it did).
 */
export const loadEngine: () => Promise<typeof DuckDB> = lazy(() => import('@duckdb/node-api'))

/** How long after start the engine loads in the background. */
export const ENGINE_WARM_UP_DELAY_MS = 1_500

/** A setting's value that names a place on this machine: `/…`, `\\…`, `~…` or a drive (`C:\…`). */
const ABSOLUTE_PATH = /^([/\\~]|[A-Za-z]:[/\\])/

/**
 * Empties every setting that holds a path (secret_directory is `<home>/.duckdb/stored_secrets`):
 * `duckdb_settings()` stays readable after the lock, and no path of this machine may reach the page.
 * Nothing of ours uses them: no secrets, extensions or spilling once locked.
 */
async function clearPathSettings(connection: DuckDBConnection): Promise<void> {
  const settings = (await connection.runAndReadAll('SELECT name, value FROM duckdb_settings()')).getRows()
  for (const [name, value] of settings)
    if (typeof name === 'string' && typeof value === 'string' && ABSOLUTE_PATH.test(value)) await connection.run(`SET ${sqlIdentifier(name)}=''`)
}

/** Creates an in-memory database, lets `load` create its tables, then locks it. */
export async function createLockedDatabase(load: DatabaseLoader, limits: EngineLimits = ENGINE_LIMITS): Promise<LockedDatabase> {
  const engine = await loadEngine()
  const { DuckDBInstance } = engine
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    memory_limit: limits.memoryLimit,
  })
  const connection = await instance.connect()
  try {
    // Nothing spills to a folder of the engine's choosing: past the memory limit a query fails.
    await connection.run("SET temp_directory=''")
    await load(connection)
    await clearPathSettings(connection)
    await connection.run('SET enable_external_access=false')
    await connection.run('SET lock_configuration=true')
  } catch (error) {
    connection.closeSync()
    instance.closeSync()
    throw error
  }
  const bind = async (sql: string, parameters: readonly CellValue[]): Promise<ReturnType<DuckDBConnection['prepare']>> => {
    const prepared = await connection.prepare(sql)
    parameters.forEach((value, index) => {
      if (value === null) prepared.bindNull(index + 1)
      else if (typeof value === 'number') prepared.bindDouble(index + 1, value)
      else if (typeof value === 'boolean') prepared.bindBoolean(index + 1, value)
      else prepared.bindVarchar(index + 1, value)
    })
    return prepared
  }
  // The shared connection runs one statement at a time: a pivot's statements and a window's reads queue.
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }
  const queries = createSqlQueries({ engine, connect: () => instance.connect(), problem: engineProblem })
  return {
    run: (sql, parameters = []) =>
      serial(() =>
        withTimeLimit(connection, limits.timeLimitMs, async () => {
          await (await bind(sql, parameters)).run()
        }),
      ),
    read: (sql, parameters = []) =>
      serial(() =>
        withTimeLimit(connection, limits.timeLimitMs, async () => {
          const reader = await (await bind(sql, parameters)).runAndReadAll()
          return { columns: reader.columnNames(), rows: reader.getRows().map((row) => row.map(cellOf)), truncated: false, notes: [] }
        }),
      ),
    readChecked: (sql, check, own = {}) => queries.read(sql, check, { rowCap: limits.rowCap, timeLimitMs: limits.timeLimitMs, ...SQL_ANSWER_LIMITS, ...own }),
    close() {
      connection.closeSync()
      void queries.idle().then(() => instance.closeSync())
    },
  }
}
