import type { Dependent, EntityId } from '@contract'
import type { PlannedRow, RowError } from './plan'

/**
 * The seams between a bulk plan, its apply and the change log. Plans come from an import
 * (`plan.ts`), a bulk edit of picked entities, or a revert of recorded changes; all three are
 * applied by one `BulkApplier` and every write lands in the `ChangeLog`, as single edits do.
 */

/** Where a batch of writes came from. `single` is one edit, create or delete made in the entity form. */
export type BatchSource = 'single' | 'edit' | 'import' | 'revert'

/**
 * A row's outcome after an apply. `conflict`: the platform's copy changed since the plan was
 * made, so nothing was sent. `skipped`: unchanged or error rows, and rows the user deselected.
 * `unknown`: a create whose answer was lost and that no external_id can look up; it is never
 * sent again by itself, and its batch stays unfinished until the user decides (`settle`).
 */
export type RowStatus = 'applied' | 'conflict' | 'failed' | 'skipped' | 'cancelled' | 'unknown'

/** An entity the platform has under the name of a create whose outcome is unknown: maybe the one it created. */
export interface CreateCandidate {
  id: EntityId
  name: string
}

/** The user's word on a create whose outcome is unknown: the id it was created as, or null to send it again. */
export interface CreateDecision {
  row: number
  createdId: EntityId | null
}

export interface ApplyRequest {
  profileId: string
  kind: string
  source: BatchSource
  /** Names the batch in the change log and the resume offer: "Import of brands.csv", "Set open_auction on 12 brands". */
  title: string
  /** Rows with action create, update or delete are sent; the others are reported as skipped. */
  rows: PlannedRow[]
  /**
   * What the input was (a hash of the file and the options, for an import): applying the same
   * input again while its journal is unfinished resumes that journal instead of starting anew.
   */
  fingerprint?: string
}

export interface RowOutcome {
  row: number
  action: PlannedRow['action']
  /** The entity's id; for a create, the id the platform gave (null when the create failed). */
  id: EntityId | null
  status: RowStatus
  /** A sentence for conflict, failed and cancelled rows. */
  reason?: string
  changes: PlannedRow['changes']
  errors?: RowError[]
  /** A delete the platform refused (406): the entities that depend on it. */
  dependents?: Dependent[]
  /** An `unknown` create: the entities the platform now has under its name. */
  candidates?: CreateCandidate[]
}

export interface ApplyProgress {
  batch: string
  done: number
  total: number
  counts: Record<RowStatus, number>
}

export interface ApplySummary {
  batch: string
  kind: string
  counts: Record<RowStatus, number>
  /** True when the signal stopped the run; the journal keeps what is left, so it can be resumed. */
  cancelled: boolean
  /** True when this run continued an earlier, interrupted one. */
  resumed: boolean
}

export interface ApplyOptions {
  signal: AbortSignal
  onOutcome?(outcome: RowOutcome): void
  onProgress?(progress: ApplyProgress): void
}

/** A batch whose journal shows it stopped half-way: the app offers to resume it at the next start. */
export interface UnfinishedBatch {
  batch: string
  profileId: string
  kind: string
  source: BatchSource
  title: string
  startedAt: string
  done: number
  total: number
  fingerprint: string | null
}

export interface BulkApplier {
  apply(request: ApplyRequest, options: ApplyOptions): Promise<ApplySummary>
  unfinished(profileId: string): Promise<UnfinishedBatch[]>
  /** An unfinished batch's planned rows and the outcomes its journal holds so far: what a resumed batch shows. */
  journal(profileId: string, batch: string): Promise<{ rows: PlannedRow[]; outcomes: RowOutcome[] }>
  /** Continues an unfinished batch: rows already applied are never sent again. */
  resume(profileId: string, batch: string, options: ApplyOptions): Promise<ApplySummary>
  /**
   * Records the user's word on a create whose outcome is unknown, then continues the batch: "it
   * was created as N" takes the platform's copy of N as the row's write; "send it again" sends it.
   */
  settle(profileId: string, batch: string, decision: CreateDecision, options: ApplyOptions): Promise<ApplySummary>
  /** Forgets an unfinished batch (what it applied stays applied and stays in the change log). */
  discard(profileId: string, batch: string): Promise<void>
}

/** One recorded write. `before` is null for a create, `after` null for a delete. */
export interface ChangeRecord {
  change: string
  /** The batch it belonged to; a single edit is a batch of one. */
  batch: string
  source: BatchSource
  /** The batch's title ("Import of brands.csv"), on each of its records so the log needs no other file; absent in records written without one. */
  title?: string
  /** ISO time of the write. */
  at: string
  /** The connection (profile) it was made against; the log is kept per connection. */
  profileId: string
  kind: string
  id: EntityId | null
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  outcome: 'applied' | 'failed' | 'conflict'
  /** The sentence for a failed or conflicting write. */
  reason?: string
  /** A revert's write: the change it undid. */
  reverts?: string
}

export interface ChangeQuery {
  /** ISO date or time: only changes at or after it. */
  since?: string
  /** Matched against the kind, id, batch title and the before/after values. */
  text?: string
  kind?: string
  /** One entity's changes: records whose id is this one (as text: the platform's ids are numbers or strings). */
  id?: EntityId
  batch?: string
  outcome?: ChangeRecord['outcome']
  offset?: number
  limit?: number
}

export interface BatchSummary {
  batch: string
  source: BatchSource
  title: string
  kind: string
  at: string
  changes: number
  /** Its applied changes no later revert undid: what a revert of the batch would act on. */
  revertible: number
}

export interface ChangeLog {
  record(records: readonly ChangeRecord[]): Promise<void>
  /** Newest first. `total` counts every match, `records` is one page of them. */
  list(profileId: string, query: ChangeQuery): Promise<{ total: number; records: ChangeRecord[]; reverted: string[] }>
  batches(profileId: string): Promise<BatchSummary[]>
  /** Writes every match as CSV to `file` (chosen by main's dialog, never by the page). */
  exportCsv(profileId: string, query: ChangeQuery, file: string): Promise<{ rows: number }>
  /**
   * The inverse of one change or of a whole batch, as plan rows for the same apply: update →
   * previous values (guarded: `before` is the recorded `after`), delete → re-create (the
   * platform gives a new id), create → delete.
   */
  planRevert(
    profileId: string,
    target: { change: string } | { batch: string },
  ): Promise<{ kind: string; title: string; rows: PlannedRow[]; problems: string[] }>
  /** Syncs and closes every log kept open for appending (a record after this opens its log again). */
  close(): Promise<void>
}
