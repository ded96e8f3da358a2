/**
 * What an OS entry may carry, and how our lines are found in a crontab. A path with a line
 * break became a second crontab line that ran on its own (issue 38 item 1): every argument is
 * checked before an entry is built, for what each scheduler reads otherwise than it is.
 */
import type { OsEntryState } from '@contract'
import { AppError } from '../../errors'

export type EntryKind = NonNullable<OsEntryState['kind']>

/** An argument an OS scheduler would read otherwise than it is: nothing is written for it. */
export class UnschedulablePathError extends AppError {
  constructor(sentence: string) {
    super('validation', sentence)
    this.name = 'UnschedulablePathError'
  }
}

const SCHEDULER_NAMES: Record<EntryKind, string> = { systemd: 'systemd', cron: 'cron', launchd: 'launchd', 'task-scheduler': 'Task Scheduler' }

/** C0 and C1 controls, DEL and the Unicode line and paragraph separators: each ends or breaks a line somewhere. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
/** Cron reads `\%` as a percent sign: a backslash of the path's own before our `\%` leaves a bare `%`, which ends cron's command. */
const BACKSLASH_BEFORE_PERCENT = /\\%/
/** Task Scheduler replaces `%NAME%` in the program and its arguments with the variable, and has no escape for it. */
const PERCENT_PAIR = /%[^%]*%/

/** What an argument is, for a sentence that names no path (sentences reach the page). */
function roleOf(command: readonly string[], index: number): string {
  if (index === 0) return 'The path of the AdOps Desk program'
  if (command[index - 1] === '--user-data') return 'The path of the data folder'
  return 'A path AdOps Desk starts its command line with'
}

function refuse(what: string, kind: EntryKind, problem: string, remedy: string): never {
  throw new UnschedulablePathError(
    `${what} has a character ${SCHEDULER_NAMES[kind]} cannot take (${problem}), so no entry was written. ${remedy} Schedules still run while the app is open.`,
  )
}

/**
 * Throws UnschedulablePathError when the command (or a text the entry also holds: the log file,
 * the user) has what this scheduler would read otherwise: any control character for every one,
 * a backslash before `%` for cron, a `%…%` pair for Task Scheduler.
 */
export function checkEntryArguments(kind: EntryKind, command: readonly string[], extras: ReadonlyArray<{ what: string; text: string }> = []): void {
  const remedy = 'Move AdOps Desk or its data folder to a path without it.'
  command.forEach((argument, index) => {
    if (CONTROL_CHARACTER.test(argument)) refuse(roleOf(command, index), kind, 'a line break or another control character', remedy)
    if (kind === 'cron' && BACKSLASH_BEFORE_PERCENT.test(argument)) refuse(roleOf(command, index), kind, 'a backslash before a percent sign', remedy)
  })
  for (const extra of extras) if (CONTROL_CHARACTER.test(extra.text)) refuse(extra.what, kind, 'a line break or another control character', remedy)
  if (kind === 'task-scheduler') {
    const [program = '', ...rest] = command
    // Checked on the texts Task Scheduler expands: a pair may span two arguments.
    if (PERCENT_PAIR.test(program)) refuse(roleOf(command, 0), kind, 'two percent signs, read as a variable', remedy)
    if (PERCENT_PAIR.test(rest.join(' '))) refuse('The path of the data folder or of the app', kind, 'two percent signs, read as a variable', remedy)
  }
}
