import { createHash } from 'node:crypto'
import path from 'node:path'
import type { Entity } from '../../services/workflow/entities'
import { builtInKinds, kindSpec } from '../../services/entities/kinds'
import { planImport, type MatchKey } from '../../services/bulk/plan'
import type { CreateDecision } from '../../services/bulk/apply-types'
import type { ImportFile } from '../../services/bulk/import-file'
import { isAppError } from '../../services/errors'
import type { Command } from '../command'
import { connectionKey } from '../connection-key'
import { writeSentence, writeText } from '../io'
import { UsageError } from '../usage'
import { applyAndPrint, EXIT_ROWS_FAILED } from './apply-output'

export { EXIT_ROWS_FAILED }

/** What the input is: the file's bytes (their digest), the kind and the match. The same input resumes its unfinished journal. */
function fingerprintOf(digest: string, kind: string, match: string | undefined): string {
  return createHash('sha256')
    .update(`${digest}\n${kind}\n${match ?? ''}`)
    .digest('hex')
}

/**
 * The file read by the app's own reader (bounds, XLSX, digest in the same pass); a file that is
 * missing or cannot be read is a usage error naming the path given, a bad table is the plan's problem.
 */
async function readFile(file: string): Promise<ImportFile> {
  // The reader (its XLSX unzipping) loads when an import runs, not at every start of the command line.
  const { readImportFile } = await import('../../services/bulk/import-file')
  try {
    return await readImportFile(file)
  } catch (error) {
    if (!isAppError(error)) throw error
    if (error.code === 'bad_input') throw new UsageError(`${file} is not a file; give the CSV, TSV or XLSX file to import.`)
    const code = error.details?.errorCode
    throw new UsageError(`Cannot read the file ${file}${typeof code === 'string' ? ` (${code})` : ''}; check its name and that you may read it.`)
  }
}

/** `--created ROW=ID` or `--send-again ROW`: the user's word on a create whose outcome is unknown; null when neither is given. */
function decisionOf(values: Record<string, unknown>): CreateDecision | null {
  const created = values.created
  const again = values['send-again']
  if (created !== undefined && again !== undefined) throw new UsageError('Say either --created or --send-again, not both.')
  const rowOf = (text: string): number => {
    if (!/^\d{1,9}$/.test(text)) throw new UsageError(`"${text}" is not a row number; use the "row" of the outcome line.`)
    return Number(text)
  }
  if (typeof again === 'string') return { row: rowOf(again), createdId: null }
  if (typeof created !== 'string') return null
  const [row = '', id = ''] = created.split('=', 2)
  if (id.trim() === '') throw new UsageError('--created takes ROW=ID: the row of the outcome line and the id the platform gave it.')
  return { row: rowOf(row.trim()), createdId: /^\d{1,15}$/.test(id.trim()) ? Number(id.trim()) : id.trim() }
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
  options: ['match', 'dry-run', 'apply', 'created', 'send-again'],
  connection: 'workflow',
  summary: 'import a CSV, TSV or XLSX file: the plan (--dry-run) or the outcomes (--apply), one JSON line per row',
  notes: [
    'An XLSX workbook is read from its first sheet; a cell holding a formula is an error, as in a CSV.',
    'Rows match existing entities by id when the file has an id column, else by external_id; a row with no match is a create.',
    'Each line: {"row", "action": create|update|unchanged|error, "id", "changes": {field: [before, after]}} and "errors" on error rows; problems with the file as a whole go to standard error.',
    'Lists are separated by ; (or a JSON array); booleans are true/false, 1/0 or yes/no; an empty cell keeps an optional field as it is.',
    '--apply sends the create and update rows, a few at a time (waiting out the platform\'s 429s), and prints each as its outcome arrives, with "status": applied|conflict|failed|skipped|cancelled|unknown and a "reason" sentence; a conflict row\'s action is "conflict" (the entity changed on the platform since the plan, nothing was sent). Rows with errors are never sent.',
    'An --apply that was interrupted (Ctrl-C, a crash, the network) is resumed by running it again on the same file: rows already applied are not sent again, and a create whose answer was lost is looked up by its external_id first. Every write goes to the connection\'s change log ("changes list").',
    'A create whose answer was lost and that has no external_id is never sent again by itself: its line says "status": "unknown", with "candidates" (the entities the platform now has under its name), and the batch stays unfinished. Check the list, then run the same command again with --created ROW=ID (it was created as ID) or --send-again ROW.',
    'Exit 4 when some rows have errors (or, with --apply, failed, conflicted or have an unknown outcome); a problem with the file as a whole sends nothing.',
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
    const decision = decisionOf(context.values)
    if (decision !== null && !apply) throw new UsageError('--created and --send-again decide a row while applying: add --apply.')
    const match = context.values.match
    if (match !== undefined && match !== 'id' && match !== 'external_id') throw new UsageError(`--match must be id or external_id, not "${match}".`)
    const file = context.args[1] ?? ''

    const { table, digest } = await readFile(file)
    const stderrLine = (text: string): Promise<void> => writeSentence(context.io.stderr, `adops-desk: ${text}\n`)
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
      const fingerprint = fingerprintOf(digest, kind, match)
      const earlier = (await applier.unfinished(profileId)).find((batch) => batch.fingerprint === fingerprint)
      if (earlier !== undefined) {
        await stderrLine(
          `Resuming the interrupted apply of this file from ${earlier.startedAt} (${earlier.done} of ${earlier.total} rows done); rows already applied are not sent again.`,
        )
      }
      if (decision !== null) {
        if (earlier === undefined) throw new UsageError('--created and --send-again decide a row of an unfinished apply of this file, and there is none.')
        return applyAndPrint(context, (options) => applier.settle(profileId, earlier.batch, decision, options))
      }
      const request = { profileId, kind, source: 'import' as const, title: `Import of ${path.basename(file)}`, rows: plan.rows, fingerprint }
      return applyAndPrint(context, (options) => applier.apply(request, options))
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
