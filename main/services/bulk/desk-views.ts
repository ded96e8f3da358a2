import type { PlanRowView, PlanSummary } from '@contract'
import type { BatchSource, RowOutcome } from './apply-types'
import type { ImportFile } from './import-file'
import type { ImportPlan, MatchKey, PlanAction, PlannedRow } from './plan'

/** How a kept plan and its rows look to the page: counts and sentences, a row's diff, errors and outcome, never the whole entity. */

export function countActions(rows: readonly PlannedRow[]): Record<PlanAction, number> {
  const counts: Record<PlanAction, number> = { create: 0, update: 0, delete: 0, unchanged: 0, error: 0 }
  for (const row of rows) counts[row.action]++
  return counts
}

export function summaryOf(plan: StoredPlan): PlanSummary {
  return {
    planId: plan.planId,
    kind: plan.kind,
    source: plan.source === 'single' ? 'edit' : plan.source,
    title: plan.title,
    counts: plan.counts,
    problems: plan.problems.slice(0, 200),
    total: plan.rows.length,
    fileName: plan.fileName,
    columns: plan.columns.slice(0, 500),
    match: plan.match,
    applying: plan.running !== null,
  }
}

const MAX_NAME_CHARS = 1000

/** The entity's name in a row: the entity the plan saw, else the one it sends; `titleField` is the kind's. */
function nameOf(row: PlannedRow, titleField: string): string | null {
  const name = row.before?.[titleField] ?? row.entity?.[titleField]
  if (typeof name === 'number') return String(name)
  return typeof name === 'string' && name.trim() !== '' ? name.slice(0, MAX_NAME_CHARS) : null
}

/** A row as the page shows it: the entity's name, the diff, the errors (bounded) and the outcome, never the whole entity. */
export function viewOf(row: PlannedRow, outcome: RowOutcome | undefined, titleField = 'name'): PlanRowView {
  return {
    row: row.row,
    action: row.action,
    id: row.id,
    name: nameOf(row, titleField),
    changes: row.changes as PlanRowView['changes'],
    errors: row.errors.slice(0, 100),
    outcome:
      outcome === undefined
        ? null
        : { status: outcome.status, id: outcome.id, reason: outcome.reason ?? null, candidates: (outcome.candidates ?? []).slice(0, 20) },
  }
}

export interface StoredPlan {
  planId: string
  profileId: string
  kind: string
  source: BatchSource
  title: string
  rows: PlannedRow[]
  counts: Record<PlanAction, number>
  problems: string[]
  fileName: string | null
  columns: ImportPlan['columns']
  match: MatchKey | null
  /** An import's file, kept so the mapping can be changed and planned again. */
  file: ImportFile | null
  /** Outcomes by row number, once applied. */
  outcomes: Map<number, RowOutcome>
  running: AbortController | null
  batch: string | null
}
