import { randomUUID } from 'node:crypto'
import path from 'node:path'
import type { Entity, EntityId, EntityKindSpec, PlanRowView, PlanSummary } from '@contract'
import { AppError } from '../errors'
import type { EventHub } from '../events'
import type { OpenFilesDialog } from '../files/dialogs'
import type { ApplyOptions, ApplySummary, BulkApplier, CreateDecision, RowOutcome, RowStatus } from './apply-types'
import { planEdit, type EditOperation } from './edit-plan'
import type { ImportFile } from './import-file'
import { planImport, type MatchKey, type PlanAction } from './plan'
import type { ColumnMapping } from './columns'
import { countActions, summaryOf, viewOf, type StoredPlan } from './desk-views'

export type { StoredPlan }

/**
 * What the screens of a bulk change talk to: plans kept in main by id (the page pages through
 * them and sends back only the id and the rows it deselected), the import file opened through
 * main's dialog, and an apply run through the `BulkApplier` with its progress sent as
 * `onBulkProgress` events. Few plans are kept (the newest ones): a plan is the screen's, not
 * a store.
 */

export interface BulkDeskOptions {
  mirrorOf(profileId: string, kind: string): Promise<readonly Entity[]>
  specOf(kind: string): EntityKindSpec | undefined
  openDialog: OpenFilesDialog
  readFile(file: string): Promise<ImportFile>
  /** Null until the apply is wired: planning works, applying says it is not available. */
  applier: BulkApplier | null
  events: EventHub
  newId?: () => string
  /** How many plans stay in memory (the oldest go first). */
  keep?: number
}

export type OpenImportResult = { status: 'planned'; plan: PlanSummary } | { status: 'choose'; files: string[] } | { status: 'cancelled' }

export interface BulkDesk {
  planEdit(profileId: string, kind: string, ids: readonly EntityId[], operation: EditOperation): Promise<PlanSummary>
  openImport(profileId: string, kind: string, fileName?: string): Promise<OpenImportResult>
  replanImport(planId: string, mapping: ColumnMapping, match?: MatchKey): Promise<PlanSummary>
  /** Keeps a plan made elsewhere (a revert) for the same view and apply. */
  keepPlan(plan: Omit<StoredPlan, 'planId' | 'outcomes' | 'running' | 'batch' | 'file' | 'columns' | 'match' | 'fileName' | 'counts'>): PlanSummary
  rows(planId: string, offset: number, limit: number, actions?: readonly PlanAction[], statuses?: readonly RowStatus[]): { total: number; rows: PlanRowView[] }
  apply(planId: string, deselected: readonly number[]): Promise<{ batch: string | null }>
  cancel(planId: string): void
  resume(profileId: string, batch: string): Promise<PlanSummary>
  /** The user's word on a row of the plan whose outcome is unknown; the batch then continues on the same plan, as a resume does. */
  settle(planId: string, decision: CreateDecision): Promise<PlanSummary>
}

const SENT: ReadonlySet<PlanAction> = new Set(['create', 'update', 'delete'])
const emptyStatusCounts = (): Record<RowStatus, number> => ({ applied: 0, conflict: 0, failed: 0, skipped: 0, cancelled: 0, unknown: 0 })

export function createBulkDesk(options: BulkDeskOptions): BulkDesk {
  const plans = new Map<string, StoredPlan>()
  const newId = options.newId ?? randomUUID
  const keep = options.keep ?? 8

  function store(plan: StoredPlan): PlanSummary {
    plans.set(plan.planId, plan)
    for (const [planId, old] of plans) {
      if (plans.size <= keep) break
      if (old.running === null) plans.delete(planId)
    }
    return summaryOf(plan)
  }
  function planOf(planId: string): StoredPlan {
    const plan = plans.get(planId)
    if (plan === undefined) throw new AppError('not_found', 'This plan is no longer kept (a newer one replaced it); plan the change again.')
    return plan
  }
  function specFor(kind: string): EntityKindSpec {
    const spec = options.specOf(kind)
    if (spec === undefined) throw new AppError('bad_input', `Bulk changes know the fields of the built-in kinds only; "${kind}" is not one of them.`)
    return spec
  }
  const blank = { outcomes: new Map<number, RowOutcome>(), running: null, batch: null }

  async function planFile(
    profileId: string,
    kind: string,
    file: ImportFile,
    mapping?: ColumnMapping,
    match?: MatchKey,
    planId = newId(),
  ): Promise<PlanSummary> {
    const spec = specFor(kind)
    const existing = file.table.problems.length > 0 ? [] : await options.mirrorOf(profileId, kind)
    const plan = planImport({ spec, table: file.table, existing, ...(mapping === undefined ? {} : { mapping }), ...(match === undefined ? {} : { match }) })
    return store({
      planId,
      profileId,
      kind,
      source: 'import',
      title: `Import of ${file.fileName}`,
      rows: plan.rows,
      counts: plan.counts,
      problems: plan.problems,
      fileName: file.fileName,
      columns: plan.columns,
      match: plan.match,
      file,
      ...blank,
      outcomes: new Map(),
    })
  }

  async function run(
    plan: StoredPlan,
    start: (signal: AbortSignal, onOutcome: (outcome: RowOutcome) => void, onProgress: ApplyProgressListener) => Promise<ApplySummary>,
    total: number,
  ): Promise<void> {
    const controller = new AbortController()
    plan.running = controller
    let counts = emptyStatusCounts()
    let done = 0
    const emit = (finished: boolean, cancelled: boolean, error: string | null) =>
      options.events.emit('onBulkProgress', { planId: plan.planId, batch: plan.batch, done, total, counts, finished, cancelled, error })
    try {
      const summary = await start(
        controller.signal,
        (outcome) => plan.outcomes.set(outcome.row, outcome),
        (progress) => {
          plan.batch = progress.batch
          ;({ done, counts } = progress)
          emit(false, false, null)
        },
      )
      plan.batch = summary.batch
      counts = summary.counts
      done = Object.values(summary.counts).reduce((sum, count) => sum + count, 0)
      plan.running = null
      emit(true, summary.cancelled, null)
    } catch (error) {
      plan.running = null
      emit(true, controller.signal.aborted, error instanceof Error ? error.message : String(error))
    }
  }

  function applierOrFail(): BulkApplier {
    if (options.applier === null)
      throw new AppError('internal', 'Applying bulk changes is not available in this build yet; the plan is kept, nothing was sent.')
    return options.applier
  }

  return {
    async planEdit(profileId, kind, ids, operation) {
      const spec = specFor(kind)
      const plan = planEdit({ spec, existing: await options.mirrorOf(profileId, kind), ids, operation })
      return store({
        planId: newId(),
        profileId,
        kind,
        source: 'edit',
        title: plan.title,
        rows: plan.rows,
        counts: plan.counts,
        problems: plan.problems,
        fileName: null,
        columns: [],
        match: null,
        file: null,
        ...blank,
        outcomes: new Map(),
      })
    },

    async openImport(profileId, kind, fileName) {
      specFor(kind)
      const paths = await options.openDialog.chooseOpenPaths(`Import ${kind}`, { name: 'Tables', extensions: ['csv', 'tsv', 'txt', 'xlsx'] })
      if (paths.length === 0) return { status: 'cancelled' }
      const chosen = fileName === undefined ? (paths.length === 1 ? paths[0] : undefined) : paths.find((candidate) => path.basename(candidate) === fileName)
      if (chosen === undefined) {
        if (fileName !== undefined) throw new AppError('not_found', `${fileName} is no longer in the imports folder; choose another file.`)
        return { status: 'choose', files: paths.slice(0, 500).map((candidate) => path.basename(candidate)) }
      }
      return { status: 'planned', plan: await planFile(profileId, kind, await options.readFile(chosen)) }
    },

    async replanImport(planId, mapping, match) {
      const plan = planOf(planId)
      if (plan.file === null) throw new AppError('bad_input', 'Only an import has columns to map; this plan is not one.')
      if (plan.running !== null) throw new AppError('conflict', 'This plan is being applied; wait for it to end before changing it.')
      return planFile(plan.profileId, plan.kind, plan.file, mapping, match, planId)
    },

    keepPlan(plan) {
      return store({
        ...plan,
        planId: newId(),
        counts: countActions(plan.rows),
        fileName: null,
        columns: [],
        match: null,
        file: null,
        ...blank,
        outcomes: new Map(),
      })
    },

    rows(planId, offset, limit, actions, statuses) {
      const plan = planOf(planId)
      const wanted = actions === undefined || actions.length === 0 ? null : new Set(actions)
      const outcomes = statuses === undefined || statuses.length === 0 ? null : new Set(statuses)
      const rows = plan.rows.filter(
        (row) => (wanted === null || wanted.has(row.action)) && (outcomes === null || outcomes.has(plan.outcomes.get(row.row)?.status ?? 'skipped')),
      )
      const titleField = options.specOf(plan.kind)?.titleField
      return { total: rows.length, rows: rows.slice(offset, offset + limit).map((row) => viewOf(row, plan.outcomes.get(row.row), titleField)) }
    },

    async apply(planId, deselected) {
      const plan = planOf(planId)
      if (plan.running !== null) throw new AppError('conflict', 'This plan is already being applied.')
      if (plan.problems.length > 0) throw new AppError('validation', `The plan has problems to fix first: ${plan.problems[0] ?? ''}`)
      const applier = applierOrFail()
      const left = new Set(deselected)
      // Error rows are never sent; deselected rows neither: both are reported skipped by the apply.
      const rows = plan.rows.filter((row) => SENT.has(row.action) && !left.has(row.row))
      if (rows.length === 0) throw new AppError('validation', 'No row is left to apply: every row is unchanged, an error or deselected.')
      plan.outcomes = new Map()
      const fingerprint = plan.file === null ? undefined : `${plan.file.digest}:${plan.kind}:${plan.match ?? ''}:${JSON.stringify(plan.columns)}`
      const request = {
        profileId: plan.profileId,
        kind: plan.kind,
        source: plan.source,
        title: plan.title,
        rows,
        ...(fingerprint === undefined ? {} : { fingerprint }),
      }
      const started = run(plan, (signal, onOutcome, onProgress) => applier.apply(request, { signal, onOutcome, onProgress }), rows.length)
      void started
      return { batch: plan.batch }
    },

    cancel(planId) {
      plans.get(planId)?.running?.abort()
    },

    resume: (profileId, batch) => continueBatch(profileId, batch, (applier, applyOptions) => applier.resume(profileId, batch, applyOptions)),

    async settle(planId, decision) {
      const plan = planOf(planId)
      const applier = applierOrFail()
      const { batch, profileId } = plan
      if (plan.running !== null) throw new AppError('conflict', 'This plan is being applied; wait for it to end before deciding a row.')
      if (batch === null || plan.outcomes.get(decision.row)?.status !== 'unknown') {
        throw new AppError('conflict', `Row ${decision.row} is not waiting for a decision (its outcome is known, or it was decided already); nothing was sent.`)
      }
      const unfinished = (await applier.unfinished(profileId)).find((candidate) => candidate.batch === batch)
      if (unfinished === undefined) throw new AppError('not_found', 'That batch is no longer there (finished or discarded elsewhere).')
      void run(plan, (signal, onOutcome, onProgress) => applier.settle(profileId, batch, decision, { signal, onOutcome, onProgress }), unfinished.total)
      return summaryOf(plan)
    },
  }

  /** An unfinished batch shown as a plan with the outcomes its journal holds so far, then continued by `start`. */
  async function continueBatch(
    profileId: string,
    batch: string,
    start: (applier: BulkApplier, applyOptions: ApplyOptions) => Promise<ApplySummary>,
  ): Promise<PlanSummary> {
    const applier = applierOrFail()
    const unfinished = (await applier.unfinished(profileId)).find((candidate) => candidate.batch === batch)
    if (unfinished === undefined) throw new AppError('not_found', 'That interrupted batch is no longer there (resumed or discarded elsewhere).')
    // The batch's rows from its journal, with the outcomes it holds so far: the plan view lists them and fills in the rest live.
    const journal = await applier.journal(profileId, batch)
    const summary = store({
      planId: newId(),
      profileId,
      kind: unfinished.kind,
      source: unfinished.source,
      title: unfinished.title,
      rows: journal.rows,
      counts: countActions(journal.rows),
      problems: [],
      fileName: null,
      columns: [],
      match: null,
      file: null,
      ...blank,
      outcomes: new Map(journal.outcomes.map((outcome) => [outcome.row, outcome])),
      batch,
    })
    const plan = planOf(summary.planId)
    void run(plan, (signal, onOutcome, onProgress) => start(applier, { signal, onOutcome, onProgress }), unfinished.total)
    // Summed up again once running: the page shows it applying before its first progress arrives.
    return summaryOf(plan)
  }
}

type ApplyProgressListener = NonNullable<Parameters<BulkApplier['apply']>[1]['onProgress']>
