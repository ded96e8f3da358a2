import path from 'node:path'
import { PIVOT_AGGREGATES, PIVOT_WINDOW_LIMITS, type PivotAggregate, type PivotLayout, type PivotValue } from '../../../common/pivot/types'
import type { Analysis } from '../../services/analysis/analysis'
import type { OpenedFileInfo } from '../../services/analysis/opened-files'
import { isAppError } from '../../services/errors'
import type { Command } from '../command'
import { csvRow } from '../csv'
import { writeJson, writeSentence, writeText } from '../io'
import { UsageError } from '../usage'

/**
 * `adops-desk pivot FILE …` and `adops-desk sql FILE… --query SQL`: the app's local analysis over
 * files on disk, with the same locked engine, row cap and time limit. No connection, no keychain.
 * A file that cannot be opened is a usage mistake (exit 2); an engine failure is exit 1.
 */

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')

function formatOf(value: string | undefined): 'csv' | 'json' {
  const format = value ?? 'json'
  if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be csv or json, not "${format}".`)
  return format
}

function valuesOf(text: string | undefined): PivotValue[] {
  const values = list(text).map((part) => {
    const [field = '', aggregate = 'sum'] = part.split(':')
    if (!(PIVOT_AGGREGATES as readonly string[]).includes(aggregate))
      throw new UsageError(`--values: "${aggregate}" is not one of ${PIVOT_AGGREGATES.join(', ')}.`)
    return { field, aggregate: aggregate as PivotAggregate }
  })
  if (values.length === 0) throw new UsageError('--values needs at least one FIELD[:sum|avg|min|max|count].')
  return values
}

function sortOf(text: string | undefined, values: PivotValue[], rows: string[]): PivotLayout['sort'] {
  if (text === undefined || text === '') return { by: 'label', direction: 'asc' }
  const direction = text.startsWith('-') ? 'desc' : 'asc'
  const field = text.replace(/^[-+]/, '')
  const value = values.findIndex((candidate) => candidate.field === field || `${candidate.field}:${candidate.aggregate}` === field)
  if (value >= 0) return { by: 'value', value, column: null, direction }
  if (rows.includes(field)) return { by: 'label', direction }
  throw new UsageError(`--sort names "${field}", which is neither a --values field nor a --rows key.`)
}

function topOf(text: string | undefined): number | null {
  if (text === undefined) return null
  const top = Number(text)
  if (!Number.isInteger(top) || top < 1) throw new UsageError(`--top must be a whole number of 1 or more, not "${text}".`)
  return top
}

/** Opens the files; one that cannot be opened is the user's to fix (exit 2). */
async function openAll(analysis: Analysis, files: readonly string[]): Promise<OpenedFileInfo[]> {
  const opened: OpenedFileInfo[] = []
  for (const file of files) {
    try {
      opened.push(await analysis.open(path.resolve(file)))
    } catch (error) {
      if (isAppError(error) && (error.code === 'bad_input' || error.code === 'storage')) throw new UsageError(error.message)
      throw error
    }
  }
  return opened
}

// The engine and its file readers load when a pivot or a query runs, not at every start of the
// command line: an export from cron does not pay for them.
async function withAnalysis<T>(work: (analysis: Analysis) => Promise<T>): Promise<T> {
  const [{ createAnalysis }, { createOpenedFiles }] = await Promise.all([
    import('../../services/analysis/analysis'),
    import('../../services/analysis/opened-files'),
  ])
  const analysis = createAnalysis({ openedFiles: createOpenedFiles() })
  try {
    return await work(analysis)
  } finally {
    analysis.dispose()
  }
}

const cellText = (value: unknown): string => (value === null || value === undefined ? '' : String(value))

export const pivotCommand: Command = {
  group: 'pivot',
  name: '',
  args: ['FILE'],
  options: ['rows', 'columns', 'values', 'sort', 'top', 'format'],
  connection: null,
  summary: 'pivot a csv/tsv/xlsx file on this machine (no connection needed)',
  notes: [
    'Example: adops-desk pivot export.csv --rows publisher --columns country --values revenue:sum --sort -revenue --top 20',
    'Rows are the pivot rows with totals; --top keeps the N largest by the sort (the first value when sorting by label) and folds the rest into "Others".',
    'Exit codes here: 0 ok, 2 bad flags or a file that cannot be opened, 1 the engine failed.',
  ],
  async run({ values: flags, args, io }) {
    const format = formatOf(flags.format)
    const rows = list(flags.rows)
    if (rows.length === 0) throw new UsageError('--rows needs at least one KEY (a column of the file).')
    const values = valuesOf(flags.values)
    const layout: PivotLayout = {
      rows,
      columns: list(flags.columns),
      values,
      sort: sortOf(flags.sort, values, rows),
      top: topOf(flags.top),
      subtotals: false,
      showChange: false,
    }
    await withAnalysis(async (analysis) => {
      const [file] = await openAll(analysis, args)
      if (file === undefined) throw new UsageError('pivot needs a FILE.')
      const pivot = await analysis.pivot(file.id, layout, []).catch((error: unknown) => {
        if (isAppError(error) && error.code === 'bad_input') throw new UsageError(error.message)
        throw error
      })
      const header: string[] = [...rows]
      const lines: string[][] = []
      for (let rowStart = 0; rowStart < pivot.rowCount; rowStart += PIVOT_WINDOW_LIMITS.rows) {
        const cells: string[][] = []
        for (let columnStart = 0; columnStart < Math.max(pivot.columnCount, 1); columnStart += PIVOT_WINDOW_LIMITS.columns) {
          const window = await analysis.window(pivot.pivotId, {
            rowStart,
            rowCount: PIVOT_WINDOW_LIMITS.rows,
            columnStart,
            columnCount: PIVOT_WINDOW_LIMITS.columns,
          })
          if (rowStart === 0)
            for (const column of window.columns) {
              const value = values[column.value]!
              const name = `${value.field}:${value.aggregate}`
              header.push(column.header.path.length === 0 ? name : `${column.header.path.join('/')} ${name}`)
            }
          window.rows.forEach((row, index) => {
            const line = (cells[index] ??= rows.map((_, level) => row.path[level] ?? ''))
            line.push(...(window.cells[index] ?? []).map(cellText))
          })
        }
        lines.push(...cells)
      }
      if (format === 'json')
        await writeJson(
          io.stdout,
          lines.map((line) => Object.fromEntries(header.map((name, index) => [name, cellOrNumber(line[index] ?? '', index >= rows.length)]))),
        )
      else await writeText(io.stdout, [header, ...lines].map(csvRow).join(''))
    })
  },
}

const cellOrNumber = (text: string, isValue: boolean): string | number | null => (isValue ? (text === '' ? null : Number(text)) : text)

/** The command line has no Open button: a file becomes a table by being named on it. */
const CLI_OPENING_ADVICE = 'To read another file, name it on the command line: adops-desk sql FILE... --query SQL makes each FILE a table.'

export const sqlCommand: Command = {
  group: 'sql',
  name: '',
  args: ['FILE...'],
  options: ['query', 'format'],
  connection: null,
  summary: 'run one read-only SQL query over csv/tsv/xlsx files on this machine',
  notes: [
    'Each file is a table named from its file name (sales_november.csv → sales_november; t1, t2… when the name is not a plain word).',
    'Only SELECT (or WITH … SELECT); no other file, no network, no extension or setting; at most 10,000 rows, 64 MB, 30 seconds; a cell past 32,768 characters is cut (said).',
    'Example: adops-desk sql export.csv --query "SELECT publisher, sum(revenue) FROM export GROUP BY 1 ORDER BY 2 DESC LIMIT 10"',
    'Exit codes here: 0 ok, 2 bad flags or a file that cannot be opened, 1 the engine refused or failed the query.',
  ],
  async run({ values: flags, args, io }) {
    const format = formatOf(flags.format)
    const query = flags.query ?? ''
    if (query.trim() === '') throw new UsageError('--query needs the SQL to run.')
    await withAnalysis(async (analysis) => {
      const files = await openAll(analysis, args)
      const result = await analysis
        .sql(
          files.map((file) => file.id),
          query,
        )
        .catch(async (error: unknown) => {
          const { withOpeningAdvice } = await import('../../services/analysis/engine')
          throw withOpeningAdvice(error, CLI_OPENING_ADVICE)
        })
      if (format === 'json') await writeJson(io.stdout, { columns: result.columns, rows: result.rows, truncated: result.truncated, notes: result.notes })
      else await writeText(io.stdout, [result.columns, ...result.rows.map((row) => row.map(cellText))].map(csvRow).join(''))
      for (const note of result.notes) await writeSentence(io.stderr, `adops-desk: warning: ${note}\n`)
      if (result.truncated && result.notes.length === 0)
        await writeSentence(
          io.stderr,
          `adops-desk: warning: only the first ${result.rows.length.toLocaleString('en-US')} rows are shown; add a LIMIT or aggregate.\n`,
        )
    })
  },
}

export const analysisCommands: readonly Command[] = [pivotCommand, sqlCommand]
