import type { ChangeRecord } from '../../services/bulk/apply-types'
import { csvRow } from '../../services/files/csv'
import type { Command, CommandContext } from '../command'
import { connectionKey } from '../connection-key'
import { writeSentence, writeText } from '../io'
import { UsageError } from '../usage'
import { applyAndPrint } from './apply-output'

/** `changes list` and `changes revert`: the connection's change log, as the app keeps it. */

const CSV_COLUMNS = ['change', 'batch', 'source', 'title', 'at', 'kind', 'id', 'outcome', 'reason', 'before', 'after'] as const

function changeLine(record: ChangeRecord): string {
  const { change, batch, source, title, at, kind, id, before, after, outcome, reason } = record
  return `${JSON.stringify({ change, batch, at, kind, id, before, after, outcome, source, ...(title === undefined ? {} : { title }), ...(reason === undefined ? {} : { reason }) })}\n`
}

/** Writes lines in chunks: a log of a hundred thousand changes is not one string. */
async function writeLines(context: CommandContext, lines: Iterable<string>): Promise<void> {
  let buffer = ''
  for (const line of lines) {
    buffer += line
    if (buffer.length >= 64 * 1024) {
      await writeText(context.io.stdout, buffer)
      buffer = ''
    }
  }
  if (buffer !== '') await writeText(context.io.stdout, buffer)
}

const list: Command = {
  group: 'changes',
  name: 'list',
  args: [],
  options: ['since', 'format'],
  connection: 'workflow',
  summary: "the connection's change log, newest first: every write made from the app or the command line",
  notes: [
    'Each line: {"change", "batch", "at", "kind", "id", "before", "after", "outcome": applied|failed|conflict, "source": single|edit|import|revert, "title", "reason"}; before is null for a create, after null for a delete.',
    'Reads the log on this computer: nothing is sent and no sign-in is needed. The log is kept per connection (the saved connection, or the address, service id and user given by flags).',
  ],
  async run(context) {
    const format = context.values.format ?? 'json'
    if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, not "${format}".`)
    const since = context.values.since
    if (since !== undefined && Number.isNaN(Date.parse(since)))
      throw new UsageError(`--since "${since}" is not a date; write it as 2026-11-01 or 2026-11-01T09:30:00Z.`)
    const profileId = await connectionKey(context.values, context.services)
    const { records } = await context.services.changeLog.list(profileId, { ...(since === undefined ? {} : { since }), limit: Number.MAX_SAFE_INTEGER })
    if (format === 'csv') {
      await writeLines(context, [csvRow(CSV_COLUMNS), ...records.map((record) => csvRow(CSV_COLUMNS.map((column) => record[column] ?? null)))])
      return
    }
    await writeLines(context, records.map(changeLine))
  },
}

const revert: Command = {
  group: 'changes',
  name: 'revert',
  args: ['[change]'],
  options: ['batch', 'dry-run', 'apply'],
  connection: 'workflow',
  summary: 'undo one change, or a whole batch with --batch: the plan (--dry-run) or the outcomes (--apply)',
  notes: [
    'An update goes back to its previous values, but only while the entity still holds what the change wrote: one changed since is a conflict, never overwritten.',
    'A delete is undone by creating the entity again: the platform gives it a new id. A create is undone by deleting it; a delete the platform refuses because other entities depend on it is a failed row saying so.',
    'Lines as "entities import" prints them; notes about the plan (writes that failed and have nothing to undo, new ids) go to standard error. The revert is itself recorded in the change log.',
    'Exit 4 when some rows failed or conflicted.',
  ],
  async run(context) {
    const change = context.args[0]
    const batch = context.values.batch
    if ((change === undefined) === (batch === undefined)) throw new UsageError('Name one change, or a whole batch with --batch BATCH (not both).')
    const apply = context.values.apply === true
    if (apply === (context.values['dry-run'] === true)) throw new UsageError('Say --dry-run to print the plan, or --apply to send it.')
    const profileId = await connectionKey(context.values, context.services)
    const plan = await context.services.changeLog.planRevert(profileId, change !== undefined ? { change } : { batch: batch ?? '' })
    for (const problem of plan.problems) await writeSentence(context.io.stderr, `adops-desk: ${problem}\n`)
    if (!apply) {
      await writeLines(
        context,
        plan.rows.map((row) => `${JSON.stringify({ row: row.row, action: row.action, id: row.id, changes: row.changes })}\n`),
      )
      return
    }
    if (plan.rows.length === 0) return
    const connection = await context.connect()
    const request = { profileId, kind: plan.kind, source: 'revert' as const, title: plan.title, rows: plan.rows }
    return applyAndPrint(context, (options) => context.services.bulk(connection).apply(request, options))
  },
}

export const changeCommands: readonly Command[] = [list, revert]
