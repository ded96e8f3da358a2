import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Entity } from '@contract'
import { createBulkApplier } from '../../../main/services/bulk/apply'
import type { ChangeRecord } from '../../../main/services/bulk/apply-types'
import { createJournalStore, type JournalHeader, type JournalStore } from '../../../main/services/bulk/journal'
import type { PlannedRow } from '../../../main/services/bulk/plan'
import { createFakeWorkflow, type FakeWorkflow } from './fake-workflow'

/**
 * A run killed at each step of a row (after the header, after `sending`, after `done`), then
 * resumed: no row is sent twice, a row left `sending` is checked on the platform first.
 */

let folder: string
let journals: JournalStore
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'adops-journal-'))
  journals = createJournalStore({ folder })
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

const brand = (id: number, name: string): Entity => ({ id, name, external_id: `BRD-${id}` })
const update = (row: number, before: Entity, name: string): PlannedRow => ({
  row,
  action: 'update',
  id: before.id,
  changes: { name: [before.name, name] },
  entity: { ...before, name },
  before,
  errors: [],
})
const create = (row: number, externalId: string): PlannedRow => ({
  row,
  action: 'create',
  id: null,
  changes: { external_id: [null, externalId] },
  entity: { name: externalId, external_id: externalId },
  before: null,
  errors: [],
})

const header = (rows: PlannedRow[]): JournalHeader => ({
  version: 1,
  batch: 'b1',
  profileId: 'p1',
  kind: 'brands',
  source: 'import',
  title: 'Import of x.csv',
  fingerprint: 'f1',
  startedAt: '2026-11-26T00:00:00.000Z',
  rows,
})

function resume(workflow: FakeWorkflow) {
  const applier = createBulkApplier({ workflowFor: async () => workflow, journals, changeLog: { record: async () => undefined }, concurrency: 1 })
  return applier.resume('p1', 'b1', { signal: new AbortController().signal })
}

const writes = (workflow: FakeWorkflow): string[] => workflow.calls.filter((call) => /^(create|update|delete)/.test(call))

describe('bulk journal', () => {
  it('killed after the header only: resume sends every row once, and the finished journal is removed', async () => {
    const workflow = createFakeWorkflow([brand(1, 'One'), brand(2, 'Two')])
    const writer = await journals.start(header([update(1, brand(1, 'One'), 'Uno'), update(2, brand(2, 'Two'), 'Dos')]))
    await writer.close()
    const summary = await resume(workflow)
    expect(summary.counts.applied).toBe(2)
    expect(writes(workflow)).toEqual(['update 1', 'update 2'])
    expect(await readdir(path.join(folder, 'p1'))).toEqual([])
  })

  it('killed after `sending` of an update that reached the platform: checked, counted applied, not sent again', async () => {
    const workflow = createFakeWorkflow([brand(1, 'Uno')])
    const writer = await journals.start(header([update(1, brand(1, 'One'), 'Uno')]))
    await writer.sending(1)
    await writer.close()
    const summary = await resume(workflow)
    expect(summary.counts.applied).toBe(1)
    expect(writes(workflow)).toEqual([])
  })

  it('killed after `sending` of an update that never arrived: the guard passes and it is sent', async () => {
    const workflow = createFakeWorkflow([brand(1, 'One')])
    const writer = await journals.start(header([update(1, brand(1, 'One'), 'Uno')]))
    await writer.sending(1)
    await writer.close()
    await resume(workflow)
    expect(writes(workflow)).toEqual(['update 1'])
    expect(workflow.entities.get('1')?.name).toBe('Uno')
  })

  it('killed after `sending` of a create: looked up by external_id; found is applied, missing is sent', async () => {
    const workflow = createFakeWorkflow([brand(1, 'One'), { id: 7, name: 'NEW-1', external_id: 'NEW-1' }])
    const writer = await journals.start(header([create(1, 'NEW-1'), create(2, 'NEW-2')]))
    await writer.sending(1)
    await writer.sending(2)
    await writer.close()
    const outcomes: Array<{ row: number; id: unknown }> = []
    const applier = createBulkApplier({ workflowFor: async () => workflow, journals, changeLog: { record: async () => undefined }, concurrency: 1 })
    await applier.resume('p1', 'b1', { signal: new AbortController().signal, onOutcome: (outcome) => outcomes.push(outcome) })
    expect(writes(workflow)).toEqual(['create NEW-2'])
    expect(outcomes).toContainEqual(expect.objectContaining({ row: 1, id: 7 }))
    expect([...workflow.entities.values()].filter((entity) => entity.external_id === 'NEW-1')).toHaveLength(1)
  })

  it('killed after recording a write but before marking it done: the resume does not record it twice', async () => {
    const workflow = createFakeWorkflow([brand(1, 'Uno')])
    const writer = await journals.start(header([update(1, brand(1, 'One'), 'Uno')]))
    await writer.sending(1)
    await writer.close()
    const records: ChangeRecord[] = [
      {
        change: 'c1',
        batch: 'b1',
        source: 'import',
        at: '2026-11-26T00:00:01.000Z',
        profileId: 'p1',
        kind: 'brands',
        id: 1,
        before: brand(1, 'One'),
        after: brand(1, 'Uno'),
        outcome: 'applied',
      },
    ]
    const changeLog = {
      record: async (more: readonly ChangeRecord[]) => void records.push(...more),
      list: async () => ({ total: records.length, records, reverted: [] }),
    }
    const applier = createBulkApplier({ workflowFor: async () => workflow, journals, changeLog, concurrency: 1 })
    const summary = await applier.resume('p1', 'b1', { signal: new AbortController().signal })
    expect(summary.counts.applied).toBe(1)
    expect(records).toHaveLength(1)
  })

  it('killed after `done`: that row is never sent again, the rest are', async () => {
    const workflow = createFakeWorkflow([brand(1, 'Uno'), brand(2, 'Two')])
    const writer = await journals.start(header([update(1, brand(1, 'One'), 'Uno'), update(2, brand(2, 'Two'), 'Dos')]))
    await writer.sending(1)
    await writer.done(1, { status: 'applied', id: 1 })
    await writer.close()
    const summary = await resume(workflow)
    expect(summary.counts.applied).toBe(2)
    expect(writes(workflow)).toEqual(['update 2'])
  })

  it('a torn last line is ignored, and lines appended after it start on a line of their own', async () => {
    const workflow = createFakeWorkflow([brand(1, 'Uno'), brand(2, 'Two')])
    const writer = await journals.start(header([update(1, brand(1, 'One'), 'Uno'), update(2, brand(2, 'Two'), 'Dos')]))
    await writer.done(1, { status: 'applied', id: 1 })
    await writer.close()
    await appendFile(path.join(folder, 'p1', 'b1.jsonl'), '{"sending":2,"do')
    const state = await journals.read('p1', 'b1')
    expect([...state.done.keys()]).toEqual([1])
    expect([...state.sending]).toEqual([])
    const reopened = await journals.reopen('p1', 'b1')
    await reopened.sending(2)
    await reopened.close()
    expect([...(await journals.read('p1', 'b1')).sending]).toEqual([2])
    await resume(workflow)
    expect(writes(workflow)).toEqual(['update 2'])
  })

  it('a journal over its size cap is a sentence, not a read into memory', async () => {
    const small = createJournalStore({ folder, maxBytes: 100 })
    const writer = await small.start(header([update(1, brand(1, 'One'), 'Uno')]))
    await writer.close()
    await expect(small.read('p1', 'b1')).rejects.toThrow(/more than the 100 B AdOps Desk reads; it cannot be resumed/)
    expect(await small.list('p1')).toEqual([])
  })
})
