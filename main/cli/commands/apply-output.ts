import type { ApplyOptions, ApplySummary, RowOutcome } from '../../services/bulk/apply-types'
import type { CommandContext } from '../command'
import { writeSentence, writeText } from '../io'

/** Some rows had errors (never sent), failed, conflicted or have an unknown outcome; the rest went through. */
export const EXIT_ROWS_FAILED = 4
/** Stopped by Ctrl-C (128 + SIGINT): the journal keeps the rest for the next run. */
const EXIT_INTERRUPTED = 130

/** One outcome as its JSON line: a conflict row's action is "conflict", as the issue's format says. */
export function outcomeLine(outcome: RowOutcome): string {
  const action = outcome.status === 'conflict' ? 'conflict' : outcome.action
  return `${JSON.stringify({
    row: outcome.row,
    action,
    id: outcome.id,
    changes: outcome.changes,
    status: outcome.status,
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    ...(outcome.errors === undefined ? {} : { errors: outcome.errors }),
    ...(outcome.dependents === undefined ? {} : { dependents: outcome.dependents }),
    ...(outcome.candidates === undefined ? {} : { candidates: outcome.candidates }),
  })}\n`
}

/** How many a row's dependents to name in the sentence; the JSON line has them all. */
const NAMED_DEPENDENTS = 10

/** The sentence on standard error for a delete the platform refused because others depend on the entity. */
export function dependentsSentence(outcome: RowOutcome): string | null {
  const dependents = outcome.dependents
  if (dependents === undefined || dependents.length === 0) return null
  const named = dependents.slice(0, NAMED_DEPENDENTS).map((dependent) => `${dependent.kind} ${String(dependent.id)} “${dependent.name}”`)
  const more = dependents.length > NAMED_DEPENDENTS ? ` and ${dependents.length - NAMED_DEPENDENTS} more` : ''
  return `row ${outcome.row}: ${String(outcome.id)} was not deleted: ${dependents.length === 1 ? 'it is used by' : `${dependents.length} entities use it:`} ${named.join(', ')}${more}. Change or delete ${dependents.length === 1 ? 'it' : 'them'} first, then run the command again.`
}

/** The sentence on standard error for a create whose outcome is unknown: what the platform has, and how to decide. */
export function unknownSentence(outcome: RowOutcome): string | null {
  if (outcome.status !== 'unknown') return null
  return `row ${outcome.row}: ${outcome.reason ?? 'Its outcome is unknown: check the list.'} Run the same command again with --created ${outcome.row}=ID (the id it was created as) or --send-again ${outcome.row}.`
}

/**
 * Applies (or resumes, or settles) a batch through `start` and prints each row's outcome as it
 * arrives. The exit code: 0 every row applied (or skipped as unchanged), 4 some rows erred,
 * failed, conflicted or have an unknown outcome, 130 stopped by Ctrl-C. An error that stopped
 * the run is thrown (exit 1); its journal stays.
 */
export async function applyAndPrint(context: CommandContext, start: (options: ApplyOptions) => Promise<ApplySummary>): Promise<number | undefined> {
  const say = (text: string): Promise<void> => writeSentence(context.io.stderr, `adops-desk: ${text}\n`)
  // Lines leave in the order the outcomes arrive, each as soon as the one before it is written.
  let writing: Promise<void> = Promise.resolve()
  let erred = 0
  const onOutcome = (outcome: RowOutcome): void => {
    if (outcome.status === 'failed' || outcome.status === 'conflict' || outcome.status === 'unknown' || outcome.action === 'error') erred += 1
    const sentence = dependentsSentence(outcome) ?? unknownSentence(outcome)
    writing = writing.then(async () => {
      await writeText(context.io.stdout, outcomeLine(outcome))
      if (sentence !== null) await say(sentence)
    })
  }
  const signal = context.signal ?? new AbortController().signal
  let summary
  try {
    summary = await start({ signal, onOutcome })
  } finally {
    await writing
  }
  if (summary.cancelled) {
    await say('Stopped before every row was sent; run the same command again to resume where it stopped.')
    return EXIT_INTERRUPTED
  }
  return erred > 0 ? EXIT_ROWS_FAILED : undefined
}
