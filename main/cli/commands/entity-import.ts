import { createHash } from 'node:crypto'
import { createReadStream, promises as fs } from 'node:fs'
import path from 'node:path'
import type { Entity } from '../../services/workflow/entities'
import { builtInKinds, kindSpec } from '../../services/entities/kinds'
import { planImport, type MatchKey } from '../../services/bulk/plan'
import { readImportTable, type ImportTable } from '../../services/bulk/read-table'
import { readXlsxTable, XLSX_LIMITS, xlsxTooLarge } from '../../services/bulk/read-xlsx'
import type { Command } from '../command'
import { connectionKey } from '../connection-key'
import { writeText } from '../io'
import { UsageError } from '../usage'
import { applyAndPrint, EXIT_ROWS_FAILED } from './apply-output'

export { EXIT_ROWS_FAILED }

/** What the input is: the file's bytes, the kind and the match. The same input resumes its unfinished journal. */
async function fingerprintOf(file: string, kind: string, match: string | undefined): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) hash.update(chunk)
  hash.update(`\n${kind}\n${match ?? ''}`)
  return hash.digest('hex')
}

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
  summary: 'import a CSV, TSV or XLSX file: the plan (--dry-run) or the outcomes (--apply), one JSON line per row',
  notes: [
    'An XLSX workbook is read from its first sheet; a cell holding a formula is an error, as in a CSV.',
    'Rows match existing entities by id when the file has an id column, else by external_id; a row with no match is a create.',
    'Each line: {"row", "action": create|update|unchanged|error, "id", "changes": {field: [before, after]}} and "errors" on error rows; problems with the file as a whole go to standard error.',
    'Lists are separated by ; (or a JSON array); booleans are true/false, 1/0 or yes/no; an empty cell keeps an optional field as it is.',
    '--apply sends the create and update rows, a few at a time (waiting out the platform\'s 429s), and prints each as its outcome arrives, with "status": applied|conflict|failed|skipped|cancelled and a "reason" sentence; a conflict row\'s action is "conflict" (the entity changed on the platform since the plan, nothing was sent). Rows with errors are never sent.',
    'An --apply that was interrupted (Ctrl-C, a crash, the network) is resumed by running it again on the same file: rows already applied are not sent again, and a create whose answer was lost is looked up by its external_id first. Every write goes to the connection\'s change log ("changes list").',
    'Exit 4 when some rows have errors (or, with --apply, failed or conflicted); a problem with the file as a whole sends nothing.',
  ],
  async run(context) {
    const kind = context.args[0] ?? ''
    const spec = kindSpec(kind)
    if (spec === undefined) {
      throw new UsageError(`"${kind}" is not a kind import knows the fields of: use one of ${builtInKinds.map((known) => known.kind).join(', ')}.`)
    }
    const apply = context.values.apply === true
    if (apply && context.values['dry-run'] === true) throw new UsageError('Say either --dry-run or --apply, not both.')
    if (!apply && context.values['dry-run'] !== true) throw new UsageError('Say --dry-run to print the plan, or --apply to send it.')
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
    if (apply) {
      if (plan.problems.length > 0) {
        await stderrLine('Nothing was sent: correct the file and run again.')
        return EXIT_ROWS_FAILED
      }
      const profileId = await connectionKey(context.values, context.services)
      const applier = context.services.bulk(connection)
      const fingerprint = await fingerprintOf(file, kind, match)
      const earlier = (await applier.unfinished(profileId)).find((batch) => batch.fingerprint === fingerprint)
      if (earlier !== undefined) {
        await stderrLine(
          `Resuming the interrupted apply of this file from ${earlier.startedAt} (${earlier.done} of ${earlier.total} rows done); rows already applied are not sent again.`,
        )
      }
      const request = { profileId, kind, source: 'import' as const, title: `Import of ${path.basename(file)}`, rows: plan.rows, fingerprint }
      return applyAndPrint(context, applier, request)
    }
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
