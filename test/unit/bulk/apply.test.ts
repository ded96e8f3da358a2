import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Entity } from '@contract'
import { createBulkApplier, type BulkApplierOptions } from '../../../main/services/bulk/apply'
import type { ApplyRequest, ChangeRecord, RowOutcome } from '../../../main/services/bulk/apply-types'
import { createJournalStore, type JournalStore } from '../../../main/services/bulk/journal'
import type { PlannedRow } from '../../../main/services/bulk/plan'
import { AppError } from '../../../main/services/errors'
import { createFakeWorkflow, lostAnswer, throttled, type FakeWorkflow } from './fake-workflow'

/** The applier against a platform in memory: the guard, lost creates, 429 back-off, cancel and the journal's resume. */

let folder: string
let journals: JournalStore
let recorded: ChangeRecord[]

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'adops-apply-'))
  journals = createJournalStore({ folder })
  recorded = []
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

const brand = (id: number, name: string): Entity => ({ id, name, external_id: `BRD-${id}`, is_open_auction_allowed: true, is_pmp_allowed: false })

function updateRow(row: number, before: Entity, name: string): PlannedRow {
  return { row, action: 'update', id: before.id, changes: { name: [before.name, name] }, entity: { ...before, name }, before, errors: [] }
}
function createRow(row: number, externalId: string): PlannedRow {
  const entity = { name: `New ${externalId}`, external_id: externalId, is_open_auction_allowed: false, is_pmp_allowed: false }
  return { row, action: 'create', id: null, changes: { name: [null, entity.name] }, entity, before: null, errors: [] }
}

function applier(workflow: FakeWorkflow, extra: Partial<BulkApplierOptions> = {}) {
  return createBulkApplier({
    workflowFor: async () => workflow,
    journals,
    changeLog: { record: async (records) => void recorded.push(...records) },
    concurrency: 2,
    ...extra,
  })
}

const request = (rows: PlannedRow[], fingerprint?: string): ApplyRequest => ({
  profileId: 'p1',
  kind: 'brands',
  source: 'import',
  title: 'Import of brands.csv',
  rows,
  ...(fingerprint === undefined ? {} : { fingerprint }),
})

async function run(workflow: FakeWorkflow, rows: PlannedRow[], extra: Partial<BulkApplierOptions> = {}) {
  const outcomes: RowOutcome[] = []
  const summary = await applier(workflow, extra).apply(request(rows), { signal: new AbortController().signal, onOutcome: (outcome) => outcomes.push(outcome) })
  return { summary, outcomes: outcomes.sort((first, second) => first.row - second.row) }
}

describe('bulk apply', () => {
  it('sends the whole entity for an update, records it, and removes the finished journal', async () => {
    const workflow = createFakeWorkflow([brand(1, 'One'), brand(2, 'Two')])
    const { summary, outcomes } = await run(workflow, [
      updateRow(2, brand(1, 'One'), 'Uno'),
      { ...updateRow(3, brand(2, 'Two'), 'Two'), action: 'unchanged', entity: null },
    ])
    expect(summary.counts).toMatchObject({ applied: 1, skipped: 1 })
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['applied', 'skipped'])
    expect(workflow.entities.get('1')).toEqual(brand(1, 'Uno'))
    expect(recorded).toEqual([
      expect.objectContaining({
        batch: summary.batch,
        source: 'import',
        title: 'Import of brands.csv',
        id: 1,
        outcome: 'applied',
        before: brand(1, 'One'),
        after: brand(1, 'Uno'),
      }),
    ])
    expect(await journals.list('p1')).toEqual([])
  })

  it('a revert’s write is recorded with the change it undoes, so the log stops offering to revert that change', async () => {
    const workflow = createFakeWorkflow([brand(1, 'Uno')])
    await run(workflow, [{ ...updateRow(1, brand(1, 'Uno'), 'One'), reverts: 'change-7' }])
    expect(recorded).toEqual([expect.objectContaining({ id: 1, outcome: 'applied', reverts: 'change-7' })])
  })

  it('an entity changed on the platform since the plan is a conflict naming the fields, and nothing is sent', async () => {
    const workflow = createFakeWorkflow([{ ...brand(1, 'One'), is_pmp_allowed: true, name: 'Changed' }])
    const { outcomes } = await run(workflow, [updateRow(2, brand(1, 'One'), 'Uno')])
    expect(outcomes[0]).toMatchObject({ status: 'conflict', reason: expect.stringContaining('(is_pmp_allowed, name)') })
    expect(workflow.calls).toEqual(['get 1'])
    expect(recorded[0]).toMatchObject({ outcome: 'conflict' })
  })

  it('a create whose answer was lost is looked up by external_id before it is ever sent again: found, applied once', async () => {
    const workflow = createFakeWorkflow([brand(1, 'One')])
    workflow.after = (call) => {
      if (call === 'create NEW-1') throw lostAnswer()
    }
    const { outcomes } = await run(workflow, [createRow(2, 'NEW-1')])
    expect(outcomes[0]).toMatchObject({ status: 'applied', id: 2 })
    expect(workflow.calls).toEqual(['create NEW-1', 'list'])
    expect([...workflow.entities.values()].filter((entity) => entity.external_id === 'NEW-1')).toHaveLength(1)
  })

  it('a lost create that the lookup does not find is sent again', async () => {
    const workflow = createFakeWorkflow([])
    let refused = false
    workflow.before = (call) => {
      if (call === 'create NEW-2' && !refused) {
        refused = true
        throw lostAnswer()
      }
    }
    const { outcomes } = await run(workflow, [createRow(2, 'NEW-2')])
    expect(outcomes[0]).toMatchObject({ status: 'applied' })
    expect(workflow.calls).toEqual(['create NEW-2', 'list', 'create NEW-2'])
  })

  it('on 429 the whole batch waits out Retry-After on the clock, then every row is applied', async () => {
    const entities = [1, 2, 3, 4, 5, 6].map((id) => brand(id, `B${id}`))
    const workflow = createFakeWorkflow(entities)
    let clock = 0
    const waits: number[] = []
    const sentAt: number[] = []
    let refusals = 0
    workflow.before = (call) => {
      if (!call.startsWith('update')) return
      // The first update is refused: the platform allows writes again 2 seconds later.
      if (refusals === 0) {
        refusals += 1
        throw throttled(2)
      }
      sentAt.push(clock)
    }
    const sleep = async (milliseconds: number): Promise<void> => {
      waits.push(milliseconds)
      clock += milliseconds
    }
    const { summary } = await run(
      workflow,
      entities.map((entity, index) => updateRow(index + 2, entity, `${String(entity.name)}!`)),
      { clock: () => clock, sleep },
    )
    expect(summary.counts.applied).toBe(6)
    expect(waits.length).toBeGreaterThan(0)
    // Every update that went through went after the pause: no row kept hammering while throttled.
    expect(sentAt.every((at) => at >= 2000)).toBe(true)
    expect(sentAt).toHaveLength(6)
  })

  it('a 406 on a delete is a failed row with entity-service’s sentence', async () => {
    const workflow = createFakeWorkflow([brand(1, 'One')])
    workflow.before = (call) => {
      if (call === 'delete 1') throw new AppError('dependents', 'Other entities depend on it.', { httpStatus: 406 })
    }
    const explainDependents = async () => new AppError('dependents', '“One” cannot be deleted because 2 entities depend on it.')
    const row: PlannedRow = { row: 1, action: 'delete', id: 1, changes: {}, entity: null, before: brand(1, 'One'), errors: [] }
    const { outcomes } = await run(workflow, [row], { explainDependents })
    expect(outcomes[0]).toMatchObject({ status: 'failed', reason: '“One” cannot be deleted because 2 entities depend on it.' })
    expect(recorded[0]).toMatchObject({ outcome: 'failed', after: null })
  })

  it('cancel: rows not started are cancelled, the journal keeps them, and resume sends only those', async () => {
    const entities = [1, 2, 3, 4].map((id) => brand(id, `B${id}`))
    const workflow = createFakeWorkflow(entities)
    const controller = new AbortController()
    workflow.after = (call) => {
      if (call === 'update 1') controller.abort()
    }
    const rows = entities.map((entity, index) => updateRow(index + 2, entity, `${String(entity.name)}!`))
    const bulk = applier(workflow, { concurrency: 1 })
    const first = await bulk.apply(request(rows), { signal: controller.signal })
    expect(first).toMatchObject({ cancelled: true, counts: { applied: 1, cancelled: 3 } })
    expect(await bulk.unfinished('p1')).toEqual([expect.objectContaining({ batch: first.batch, done: 1, total: 4, title: 'Import of brands.csv' })])
    workflow.calls = []
    const second = await bulk.resume('p1', first.batch, { signal: new AbortController().signal })
    expect(second).toMatchObject({ resumed: true, cancelled: false, counts: { applied: 4 } })
    expect(workflow.calls.filter((call) => call.startsWith('update'))).toEqual(['update 2', 'update 3', 'update 4'])
    expect(await bulk.unfinished('p1')).toEqual([])
  })

  it('the same fingerprint resumes the unfinished journal instead of starting anew', async () => {
    const workflow = createFakeWorkflow([brand(1, 'One'), brand(2, 'Two')])
    const controller = new AbortController()
    workflow.after = () => controller.abort()
    const rows = [updateRow(2, brand(1, 'One'), 'Uno'), updateRow(3, brand(2, 'Two'), 'Dos')]
    const bulk = applier(workflow, { concurrency: 1 })
    const first = await bulk.apply(request(rows, 'hash-1'), { signal: controller.signal })
    workflow.after = undefined
    const second = await bulk.apply(request(rows, 'hash-1'), { signal: new AbortController().signal })
    expect(second).toMatchObject({ batch: first.batch, resumed: true, counts: { applied: 2 } })
  })

  it('a network failure that is not the row’s own stops the run; the journal stays for a resume', async () => {
    const workflow = createFakeWorkflow([brand(1, 'One')])
    workflow.before = () => {
      throw new AppError('network', 'The platform is offline.', { errorCode: 'ECONNREFUSED' })
    }
    const bulk = applier(workflow)
    await expect(bulk.apply(request([updateRow(2, brand(1, 'One'), 'Uno')]), { signal: new AbortController().signal })).rejects.toMatchObject({
      code: 'network',
    })
    expect(await bulk.unfinished('p1')).toHaveLength(1)
  })
})
