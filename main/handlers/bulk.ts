import path from 'node:path'
import type { ChangeRecordView } from '@contract'
import type { Services } from '../services'
import type { ChangeRecord } from '../services/bulk/apply-types'
import { AppError } from '../services/errors'
import { chooseSaveTarget } from '../services/files/save-target'
import type { HandlersFor } from './types'

/** Thin: plans live in the bulk desk (services/bulk/desk.ts), the history in the change log. */
export function bulkHandlers({ bulk, bulkDesk }: Services): HandlersFor<'bulk'> {
  const { desk } = bulkDesk
  return {
    'bulk:planEdit': ({ profileId, kind, ids, operation }) => desk.planEdit(profileId, kind, ids, operation),
    'bulk:openImport': ({ profileId, kind, fileName }) => desk.openImport(profileId, kind, fileName),
    'bulk:replanImport': ({ planId, mapping, match }) => desk.replanImport(planId, mapping, match),
    'bulk:rows': async ({ planId, offset, limit, actions, outcomes }) => desk.rows(planId, offset, limit, actions, outcomes),
    'bulk:apply': ({ planId, deselected }) => desk.apply(planId, deselected),
    async 'bulk:cancel'({ planId }) {
      desk.cancel(planId)
      return null
    },
    async 'bulk:unfinished'({ profileId }) {
      const batches = await bulk.unfinished(profileId)
      return batches.map(({ batch, kind, source, title, startedAt, done, total }) => ({ batch, kind, source, title, startedAt, done, total }))
    },
    'bulk:resume': ({ profileId, batch }) => desk.resume(profileId, batch),
    'bulk:settle': ({ planId, row, createdId }) => desk.settle(planId, { row, createdId }),
    async 'bulk:discard'({ profileId, batch }) {
      await bulk.discard(profileId, batch)
      return null
    },
  }
}

const viewOf = (record: ChangeRecord, reverted: ReadonlySet<string>): ChangeRecordView => ({
  change: record.change,
  batch: record.batch,
  source: record.source,
  at: record.at,
  kind: record.kind,
  id: record.id,
  before: record.before as ChangeRecordView['before'],
  after: record.after as ChangeRecordView['after'],
  outcome: record.outcome,
  reason: record.reason ?? null,
  reverted: reverted.has(record.change),
})

export function changeHandlers({ changes, bulkDesk }: Services): HandlersFor<'changes'> {
  return {
    async 'changes:list'({ profileId, query }) {
      const { total, records, reverted } = await changes.list(profileId, { ...query, limit: Math.min(query.limit ?? 100, 500) })
      const undone = new Set(reverted)
      return { total, records: records.slice(0, 500).map((record) => viewOf(record, undone)) }
    },
    'changes:batches': async ({ profileId }) => (await changes.batches(profileId)).slice(0, 10_000),
    async 'changes:exportCsv'({ profileId, query }) {
      const file = await chooseSaveTarget(bulkDesk.saveDialog, 'changes.csv', { name: 'CSV', extensions: ['csv'] })
      if (file === null) return null
      // Every match goes to the file, not the page the list shows.
      const { offset: _offset, limit: _limit, ...every } = query
      const { rows } = await changes.exportCsv(profileId, every, file)
      return { fileName: path.basename(file), rows }
    },
    async 'changes:planRevert'({ profileId, change, batch }) {
      const target = change !== undefined ? { change } : batch !== undefined ? { batch } : null
      if (target === null || (change !== undefined && batch !== undefined)) throw new AppError('bad_input', 'Name one change or one batch to revert.')
      const revert = await changes.planRevert(profileId, target)
      return bulkDesk.desk.keepPlan({ profileId, kind: revert.kind, source: 'revert', title: revert.title, rows: revert.rows, problems: revert.problems })
    },
  }
}
