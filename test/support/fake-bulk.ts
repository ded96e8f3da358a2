import type { ApplyOptions, ApplyRequest, ApplySummary, BulkApplier, RowStatus, UnfinishedBatch } from '../../main/services/bulk/apply-types'

/**
 * A `BulkApplier` that applies nothing: it reports every row it is given as applied (or as the
 * status `statusOf` says), in order, with progress after each, and keeps the requests it got.
 * For the screens' and the desk's tests until (and besides) the real apply.
 */
export interface FakeApplier extends BulkApplier {
  requests: ApplyRequest[]
  batches: UnfinishedBatch[]
  discarded: string[]
}

export function createFakeApplier(statusOf: (row: number) => RowStatus = () => 'applied'): FakeApplier {
  const requests: ApplyRequest[] = []
  const batches: UnfinishedBatch[] = []
  const discarded: string[] = []
  let count = 0
  async function run(request: ApplyRequest, options: ApplyOptions, batch: string): Promise<ApplySummary> {
    const counts: Record<RowStatus, number> = { applied: 0, conflict: 0, failed: 0, skipped: 0, cancelled: 0, unknown: 0 }
    let done = 0
    for (const row of request.rows) {
      const status: RowStatus = options.signal.aborted ? 'cancelled' : statusOf(row.row)
      counts[status]++
      done++
      options.onOutcome?.({
        row: row.row,
        action: row.action,
        id: row.id ?? 1000 + row.row,
        status,
        changes: row.changes,
        ...(status === 'applied' ? {} : { reason: `Row ${row.row} ${status}.` }),
      })
      options.onProgress?.({ batch, done, total: request.rows.length, counts: { ...counts } })
      await Promise.resolve()
    }
    return { batch, kind: request.kind, counts, cancelled: options.signal.aborted, resumed: false }
  }
  return {
    requests,
    batches,
    discarded,
    apply(request, options) {
      requests.push(request)
      count++
      return run(request, options, `batch-${count}`)
    },
    async unfinished(profileId) {
      return batches.filter((batch) => batch.profileId === profileId)
    },
    async journal(profileId, batch) {
      if (!batches.some((candidate) => candidate.batch === batch && candidate.profileId === profileId)) throw new Error('no such batch')
      return { rows: [], outcomes: [] }
    },
    async resume(profileId, batch, options) {
      const found = batches.find((candidate) => candidate.batch === batch && candidate.profileId === profileId)
      if (found === undefined) throw new Error('no such batch')
      return { ...(await run({ profileId, kind: found.kind, source: found.source, title: found.title, rows: [] }, options, batch)), resumed: true }
    },
    async settle(profileId, batch, _decision, options) {
      return this.resume(profileId, batch, options)
    },
    async discard(_profileId, batch) {
      discarded.push(batch)
    },
  }
}
