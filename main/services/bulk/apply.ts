import { randomUUID } from 'node:crypto'
import type { Entity, EntityId } from '@contract'
import type { MirrorStore } from '../entities/mirror-store'
import { createLimiter } from '../exports/limiter'
import { AppError } from '../errors'
import { applyRow, checkSent, createdNameOf, lookUpCreates, takeAsCreated, upsertInto, type ApplyWorkflow, type RowContext, type RowWrite } from './apply-row'
import type { ApplyOptions, ApplySummary, BulkApplier, ChangeLog, ChangeRecord, RowOutcome, RowStatus, UnfinishedBatch } from './apply-types'
import type { JournalDone, JournalState, JournalStore, JournalWriter } from './journal'
import type { PlannedRow } from './plan'
import { createThrottleGate, realSleep, type Sleep } from './throttle-gate'

/**
 * Applies a plan: rows sent a few at a time (the whole batch pausing while the platform says
 * 429), each announced in the batch's journal before it is sent and marked done after, each
 * write recorded in the change log and put in the mirror. A run stopped by cancel, a crash or
 * an error that is not the row's own (the network went away) leaves its journal, and
 * `resume` carries on from it without sending anything twice. A batch with a create whose
 * outcome is `unknown` keeps its journal until the user settles that row.
 */

export interface BulkApplierOptions {
  workflowFor(profileId: string): Promise<ApplyWorkflow>
  journals: JournalStore
  /** `list` lets a resume see which writes a killed run recorded but had not marked done, so none is recorded twice. */
  changeLog: Pick<ChangeLog, 'record'> & Partial<Pick<ChangeLog, 'list'>>
  /** The app's lists, kept up to date as the entity form keeps them; the command line has none. */
  mirrors?: Pick<MirrorStore, 'change'>
  explainDependents?(profileId: string, kind: string, id: EntityId, error: AppError): Promise<AppError>
  now?: () => Date
  concurrency?: number
  /** Milliseconds that move (Date.now): the 429 back-off waits on it. Apart from `now`, which stamps the records and may be fixed in tests. */
  clock?: () => number
  sleep?: Sleep
  newId?: () => string
}

const SENT: ReadonlySet<PlannedRow['action']> = new Set(['create', 'update', 'delete'])
const emptyCounts = (): Record<RowStatus, number> => ({ applied: 0, conflict: 0, failed: 0, skipped: 0, cancelled: 0, unknown: 0 })

/** A row's outcome as the journal keeps it: status, id, and the sentence and candidates when there are any. */
const keptOutcome = ({ status, id, reason, candidates }: JournalDone | RowWrite): JournalDone => ({
  status,
  id,
  ...(reason === undefined ? {} : { reason }),
  ...(candidates === undefined ? {} : { candidates }),
})

export function createBulkApplier(options: BulkApplierOptions): BulkApplier {
  const { journals, changeLog, mirrors, explainDependents } = options
  const now = options.now ?? (() => new Date())
  const newId = options.newId ?? randomUUID
  const concurrency = options.concurrency ?? 4
  const sleep = options.sleep ?? realSleep
  const clock = options.clock ?? Date.now

  async function run(state: JournalState, writer: JournalWriter, resumed: boolean, { signal, onOutcome, onProgress }: ApplyOptions): Promise<ApplySummary> {
    const { header } = state
    const { batch, profileId, kind } = header
    const counts = emptyCounts()
    let done = 0
    const total = header.rows.length
    const report = (outcome: RowOutcome): void => {
      counts[outcome.status] += 1
      done += 1
      onOutcome?.(outcome)
      onProgress?.({ batch, done, total, counts: { ...counts } })
    }
    const outcomeOf = (row: PlannedRow, status: RowStatus, id: EntityId | null, reason?: string, candidates?: JournalDone['candidates']): RowOutcome => ({
      row: row.row,
      action: row.action,
      id,
      status,
      changes: row.changes,
      ...(reason === undefined ? {} : { reason }),
      ...(row.errors.length > 0 ? { errors: row.errors } : {}),
      ...(candidates === undefined ? {} : { candidates }),
    })

    const workflow = await options.workflowFor(profileId)
    const gate = createThrottleGate(clock, sleep)
    const context: RowContext = {
      kind,
      workflow,
      gate,
      signal,
      ...(explainDependents === undefined
        ? {}
        : { explainDependents: (kindName: string, id: EntityId, error: AppError) => explainDependents(profileId, kindName, id, error) }),
    }
    const put: Entity[] = []
    const removed: EntityId[] = []

    const pending: PlannedRow[] = []
    for (const row of header.rows) {
      const previous = state.done.get(row.row)
      if (!SENT.has(row.action)) report(outcomeOf(row, 'skipped', row.id))
      // An `unknown` create waits for the user's word (`settle`): reported as it was, never sent.
      else if (previous !== undefined) report(outcomeOf(row, previous.status, previous.id, previous.reason, previous.candidates))
      else pending.push(row)
    }
    // Creates a killed run left `sending` are looked up together: one listing of the kind, not one per row.
    const lostCreates = pending.filter((row) => state.sending.has(row.row) && row.action === 'create')
    const externalIds = new Set(
      lostCreates.flatMap((row) => (typeof row.entity?.external_id === 'string' && row.entity.external_id !== '' ? [row.entity.external_id] : [])),
    )
    const names = new Set(
      lostCreates.flatMap((row) => {
        const name = externalIds.has(String(row.entity?.external_id)) ? null : createdNameOf(kind, row)
        return name === null ? [] : [name]
      }),
    )
    const known = await lookUpCreates(context, externalIds, names)
    // A killed run may have recorded a write and died before marking it done: its record is not written again.
    const logged = new Set<string>()
    if (state.sending.size > 0 && changeLog.list !== undefined) {
      const { records } = await changeLog.list(profileId, { batch, limit: Number.MAX_SAFE_INTEGER })
      for (const record of records) logged.add(String(record.id))
    }

    const finish = async (row: PlannedRow, write: RowWrite, reconciled: boolean): Promise<void> => {
      if (write.status === 'unknown') {
        // Nothing is known to be written: no change record, and the row waits in the journal for the user.
        await writer.done(row.row, keptOutcome(write))
        report(outcomeOf(row, 'unknown', null, write.reason, write.candidates))
        return
      }
      const record: ChangeRecord = {
        change: newId(),
        batch,
        source: header.source,
        at: now().toISOString(),
        profileId,
        kind,
        id: write.id,
        before: write.before,
        after: write.after,
        title: header.title,
        outcome: write.status,
        ...(write.reason === undefined ? {} : { reason: write.reason }),
        ...(row.reverts === undefined ? {} : { reverts: row.reverts }),
      }
      if (!reconciled || !logged.has(String(write.id))) await changeLog.record([record])
      await writer.done(row.row, keptOutcome(write))
      if (write.mirror !== undefined) {
        if ('put' in write.mirror) put.push(write.mirror.put)
        else removed.push(write.mirror.remove)
      }
      // A revert re-creates a deleted entity under a new id: said, since links to the old id stay broken.
      const recreated =
        header.source === 'revert' && row.action === 'create' && write.status === 'applied'
          ? `Created again as ${String(write.id)}: the platform gives a new id, so the deleted one's id is not reused.`
          : undefined
      const outcome = outcomeOf(row, write.status, write.id, write.reason ?? recreated)
      report(write.dependents === undefined ? outcome : { ...outcome, dependents: write.dependents })
    }

    let stopped: unknown = null
    const limiter = createLimiter(concurrency)
    const send = async (row: PlannedRow): Promise<void> => {
      if (signal.aborted || stopped !== null) {
        report(outcomeOf(row, 'cancelled', row.id, 'Not sent: the apply was stopped before this row. Resume the batch to send it.'))
        return
      }
      try {
        const createdId = state.decisions.get(row.row)
        const checked =
          createdId !== undefined && createdId !== null
            ? await takeAsCreated(context, row, createdId)
            : state.sending.has(row.row)
              ? await checkSent(context, row, known)
              : null
        if (checked === null) await writer.sending(row.row)
        await finish(row, checked ?? (await applyRow(context, row)), checked !== null)
      } catch (error) {
        if (signal.aborted) {
          report(outcomeOf(row, 'cancelled', row.id, 'Stopped while being sent; resuming the batch checks it on the platform before sending it again.'))
          return
        }
        stopped ??= error
        report(outcomeOf(row, 'cancelled', row.id, 'Not finished: the apply stopped on an error. Resume the batch to check and send it.'))
      }
    }
    try {
      await Promise.all(pending.map((row) => limiter.queue(() => send(row))))
    } finally {
      await writer.close().catch(() => undefined)
      if (mirrors !== undefined && (put.length > 0 || removed.length > 0)) {
        await mirrors.change(profileId, kind, upsertInto(put, removed)).catch(() => undefined)
      }
    }
    if (stopped !== null) throw stopped
    const cancelled = signal.aborted && counts.cancelled > 0
    if (!cancelled && counts.unknown === 0) await journals.remove(profileId, batch)
    return { batch, kind, counts, cancelled, resumed }
  }

  async function resume(profileId: string, batch: string, applyOptions: ApplyOptions): Promise<ApplySummary> {
    const state = await journals.read(profileId, batch)
    const writer = await journals.reopen(profileId, batch)
    return run(state, writer, true, applyOptions)
  }

  return {
    async apply(request, applyOptions) {
      if (request.fingerprint !== undefined) {
        const earlier = (await journals.list(request.profileId)).find((state) => state.header.fingerprint === request.fingerprint)
        if (earlier !== undefined) return resume(request.profileId, earlier.header.batch, applyOptions)
      }
      const header = {
        version: 1 as const,
        batch: newId(),
        profileId: request.profileId,
        kind: request.kind,
        source: request.source,
        title: request.title,
        fingerprint: request.fingerprint ?? null,
        startedAt: now().toISOString(),
        rows: request.rows,
      }
      const writer = await journals.start(header)
      return run({ header, done: new Map(), sending: new Set(), decisions: new Map() }, writer, false, applyOptions)
    },

    async unfinished(profileId): Promise<UnfinishedBatch[]> {
      return (await journals.list(profileId)).map(({ header, done }) => ({
        batch: header.batch,
        profileId: header.profileId,
        kind: header.kind,
        source: header.source,
        title: header.title,
        startedAt: header.startedAt,
        done: done.size,
        total: header.rows.filter((row) => SENT.has(row.action)).length,
        fingerprint: header.fingerprint,
      }))
    },

    async journal(profileId, batch) {
      const { header, done } = await journals.read(profileId, batch)
      const outcomes = header.rows.flatMap((row): RowOutcome[] => {
        const previous = done.get(row.row)
        if (previous === undefined) return []
        return [
          {
            row: row.row,
            action: row.action,
            id: previous.id,
            status: previous.status,
            changes: row.changes,
            ...(previous.reason === undefined ? {} : { reason: previous.reason }),
            ...(previous.candidates === undefined ? {} : { candidates: previous.candidates }),
          },
        ]
      })
      return { rows: header.rows, outcomes }
    },

    resume,

    async settle(profileId, batch, { row, createdId }, applyOptions) {
      const { done } = await journals.read(profileId, batch)
      if (done.get(row)?.status !== 'unknown') {
        throw new AppError(
          'conflict',
          `Row ${row} of this batch is not waiting for a decision (its outcome is known, or it was decided already); nothing was sent.`,
        )
      }
      const writer = await journals.reopen(profileId, batch)
      try {
        await writer.decide(row, createdId)
      } finally {
        await writer.close()
      }
      return resume(profileId, batch, applyOptions)
    },

    discard: (profileId, batch) => journals.remove(profileId, batch),
  }
}
