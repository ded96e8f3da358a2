import { createReadStream, promises as fs } from 'node:fs'
import type { Entity } from '../../services/workflow/entities'
import { builtInKinds, kindSpec } from '../../services/entities/kinds'
import { planImport, type MatchKey } from '../../services/bulk/plan'
import { readImportTable, type ImportTable } from '../../services/bulk/read-table'
import { readXlsxTable, XLSX_LIMITS, xlsxTooLarge } from '../../services/bulk/read-xlsx'
import type { Command } from '../command'
import { writeText } from '../io'
import { UsageError } from '../usage'

/** The plan has rows with errors (never sent): the rest is on stdout. */
export const EXIT_ROWS_FAILED = 4

/** The file as rows; a file that is missing or cannot be read is a usage error, a bad table is the plan's problem. */
async function readFile(file: string): Promise<ImportTable> {
  const unreadable = (code: unknown): UsageError =>
    new UsageError(`Cannot read the file ${file}${typeof code === 'string' ? ` (${code})` : ''}; check its name and that you may read it.`)
  let stats
  try {
    stats = await fs.stat(file)
  } catch (error) {
    throw unreadable((error as { code?: unknown }).code)
  }
  if (!stats.isFile()) throw new UsageError(`${file} is not a file; give the CSV, TSV or XLSX file to import.`)
  if (/\.xlsx$/i.test(file)) {
    // A workbook is a zip read whole: its size is checked before a byte of it is read.
    if (stats.size > XLSX_LIMITS.maxBytes) return { separator: ',', header: [], rows: [], problems: [xlsxTooLarge()], scanned: 0 }
    try {
      return readXlsxTable(await fs.readFile(file))
    } catch (error) {
      throw unreadable((error as { code?: unknown }).code)
    }
  }
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 })
  try {
    return await readImportTable(stream)
  } catch (error) {
    throw unreadable((error as { code?: unknown }).code)
  } finally {
    stream.destroy()
  }
}

async function allEntities(pages: AsyncIterable<readonly Entity[]>): Promise<Entity[]> {
  const entities: Entity[] = []
  for await (const page of pages) for (const entity of page) entities.push(entity)
  return entities
}

export const importEntities: Command = {
  group: 'entities',
  name: 'import',
  args: ['<kind>', '<file>'],
  options: ['match', 'dry-run', 'apply'],
  connection: 'workflow',
  summary: 'plan an import of a CSV, TSV or XLSX file: one JSON line per row, nothing sent (--dry-run)',
  notes: [
    'An XLSX workbook is read from its first sheet; a cell holding a formula is an error, as in a CSV.',
    'Rows match existing entities by id when the file has an id column, else by external_id; a row with no match is a create.',
    'Each line: {"row", "action": create|update|unchanged|error, "id", "changes": {field: [before, after]}} and "errors" on error rows; problems with the file as a whole go to standard error.',
    'Lists are separated by ; (or a JSON array); booleans are true/false, 1/0 or yes/no; an empty cell keeps an optional field as it is.',
    'Exit 4 when some rows have errors. --apply is not yet available.',
  ],
  async run(context) {
    const kind = context.args[0] ?? ''
    const spec = kindSpec(kind)
    if (spec === undefined) {
      throw new UsageError(`"${kind}" is not a kind import knows the fields of: use one of ${builtInKinds.map((known) => known.kind).join(', ')}.`)
    }
    if (context.values.apply === true) throw new UsageError('Applying an import is not yet available; run with --dry-run to see the plan.')
    if (context.values['dry-run'] !== true) throw new UsageError('Say --dry-run to print the plan (applying an import is not yet available).')
    const match = context.values.match
    if (match !== undefined && match !== 'id' && match !== 'external_id') throw new UsageError(`--match must be id or external_id, not "${match}".`)
    const file = context.args[1] ?? ''

    const table = await readFile(file)
    const stderrLine = (text: string): Promise<void> => writeText(context.io.stderr, `adops-desk: ${text}\n`)
    // A file that cannot be read as a table plans nothing: no need to sign in.
    if (table.problems.length > 0) {
      for (const problem of table.problems) await stderrLine(problem)
      return EXIT_ROWS_FAILED
    }
    const connection = await context.connect()
    const existing = await allEntities(connection.workflow.list(kind, { signal: context.signal }))
    const plan = planImport({ spec, table, existing, ...(match === undefined ? {} : { match: match as MatchKey }) })
    for (const problem of plan.problems) await stderrLine(problem)
    let buffer = ''
    for (const row of plan.rows) {
      const line = { row: row.row, action: row.action, id: row.id, changes: row.changes, ...(row.action === 'error' ? { errors: row.errors } : {}) }
      buffer += `${JSON.stringify(line)}\n`
      if (buffer.length >= 64 * 1024) {
        await writeText(context.io.stdout, buffer)
        buffer = ''
      }
    }
    if (buffer !== '') await writeText(context.io.stdout, buffer)
    return plan.counts.error > 0 || plan.problems.length > 0 ? EXIT_ROWS_FAILED : undefined
  },
}
