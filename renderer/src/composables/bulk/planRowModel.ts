import type { PlanRowView } from '@contract'
import { fieldWords, type FieldWords } from '../../domain/entities/fieldWords'

/**
 * A plan row as PlanRow draws it, its texts made once when its page arrives from main, not on
 * every render: a scroll step re-renders each row on screen, and formatting every diff value
 * then was part of the bulk-scroll bench's worst frames.
 */
export interface PlanRowModel {
  row: number
  action: PlanRowView['action']
  /** The entity's id, or "new" for a create. */
  idText: string
  /** The entity as the row names it: "Humongous Electronics (4)", or its id alone when it has no name. */
  entityText: string
  /** Whether the row is sent on apply (error and unchanged rows never are): only those have a check box. */
  sendable: boolean
  diffs: Array<{ field: string; before: string; after: string }>
  /** Each error as one sentence, its column named once. */
  problems: string[]
  outcome: { status: NonNullable<PlanRowView['outcome']>['status']; reason: string | null } | null
}

/** Rows a plan sends: error, unchanged (and deselected) rows never are. */
export const sendable = (row: Pick<PlanRowView, 'action'>): boolean => row.action === 'create' || row.action === 'update' || row.action === 'delete'

const MAX_VALUE_CHARS = 80

/** A value as one short line in the forms' words (Yes/No, lists joined with "; ", nothing as a dash), long text cut with an ellipsis. */
export function shownValue(value: unknown, words: FieldWords = NO_SPEC): string {
  const text = words.value(value)
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text
}
const NO_SPEC = fieldWords(null)

/** `words`: the plan's kind's labels; without them a field keeps its API name (its values are still in words). */
export function planRowModel(view: PlanRowView, words: FieldWords = NO_SPEC): PlanRowModel {
  const idText = view.id === null ? 'new' : String(view.id)
  return {
    row: view.row,
    action: view.action,
    idText,
    entityText: view.name ? `${view.name} (${idText})` : idText,
    sendable: sendable(view),
    diffs: Object.entries(view.changes ?? {}).map(([field, [before, after]]) => ({
      field: words.label(field),
      before: shownValue(before, words),
      after: shownValue(after, words),
    })),
    problems: view.errors.map((problem) =>
      problem.column && !problem.reason.startsWith(`${problem.column}:`) ? `${problem.column}: ${problem.reason}` : problem.reason,
    ),
    outcome: view.outcome === null ? null : { status: view.outcome.status, reason: view.outcome.reason ?? null },
  }
}
