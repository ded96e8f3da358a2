import type { z } from 'zod'
import { AppError } from '../errors'
import { judgeDocument } from './json-file'

/**
 * Every store checks what it is about to write against the schema its reader uses: a value the
 * next reader finds invalid (a schedule offset of 0.6 minutes, a fired alert's Infinity that JSON
 * turns into null) has the whole file moved aside there, or its line skipped, and everything else
 * in it with it. Such a value is refused before anything is written, so what was saved stays.
 *
 * `what` starts the sentence: "The change" (a document store), "The run’s ledger line", "The preset “Weekly EU”".
 */
export function refuseUnreadable(value: unknown, schema: z.ZodType, what: string): void {
  const judged = judgeDocument(value, schema)
  if ('problem' in judged) throw unreadableWrite(what, judged.problem)
}

/** The error of a refused write: `problem` ends a sentence that begins "because". */
export function unreadableWrite(what: string, problem: string): AppError {
  return new AppError(
    'storage',
    `${what} was not saved because ${problem}, and AdOps Desk would not be able to read it back. What was saved before is kept as it was; if this keeps happening, report it.`,
    { error: problem },
  )
}
