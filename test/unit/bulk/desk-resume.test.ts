import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Entity, EventPayload } from '@contract'
import { createBulkApplier } from '../../../main/services/bulk/apply'
import { createBulkDesk } from '../../../main/services/bulk/desk'
import { readImportFile } from '../../../main/services/bulk/import-file'
import { createJournalStore, type JournalStore } from '../../../main/services/bulk/journal'
import type { PlannedRow } from '../../../main/services/bulk/plan'
import { kindSpec } from '../../../main/services/entities/kinds'
import { createEventHub } from '../../../main/services/events'
import { createFakeWorkflow } from './fake-workflow'

/** "Resume" of an unfinished batch: the plan view lists the batch's rows with the outcomes its journal holds, then the rest as they come. */

let folder: string
let journals: JournalStore
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'adops-desk-resume-'))
  journals = createJournalStore({ folder })
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

const brand = (id: number): Entity => ({ id, name: `Brand ${id}`, external_id: `B-${id}`, is_open_auction_allowed: true, is_pmp_allowed: false })
const rename = (row: number, before: Entity): PlannedRow => ({
  row,
  action: 'update',
  id: before.id,
  changes: { name: [before.name, `Renamed ${row}`] },
  entity: { ...before, name: `Renamed ${row}` },
  before,
  errors: [],
})

const header = {
  version: 1 as const,
  batch: 'batch-1',
  profileId: 'p',
  kind: 'brands',
  source: 'import' as const,
  title: 'Import of brands.csv',
  fingerprint: null,
  startedAt: '2026-11-26T08:00:00.000Z',
}

describe('resuming an unfinished batch in the desk', () => {
  it('shows every row of the batch, the one done before with its outcome, and the others live as they are applied', async () => {
    const brands = [brand(1), brand(2), brand(3)]
    const workflow = createFakeWorkflow(brands)
    // A batch the app died in: its journal says row 1 was applied, rows 2 and 3 never sent.
    const writer = await journals.start({
      version: 1,
      batch: 'batch-1',
      profileId: 'p',
      kind: 'brands',
      source: 'import',
      title: 'Import of brands.csv',
      fingerprint: null,
      startedAt: '2026-11-26T08:00:00.000Z',
      rows: brands.map((entity, index) => rename(index + 1, entity)),
    })
    await writer.sending(1)
    await writer.done(1, { status: 'applied', id: 1 })
    await writer.close()

    const events = createEventHub()
    const finished = new Promise<EventPayload<'onBulkProgress'>>((resolve) =>
      events.subscribe((event, payload) => {
        if (event === 'onBulkProgress' && (payload as EventPayload<'onBulkProgress'>).finished) resolve(payload as EventPayload<'onBulkProgress'>)
      }),
    )
    const applier = createBulkApplier({ workflowFor: async () => workflow, journals, changeLog: { record: async () => undefined } })
    const desk = createBulkDesk({
      mirrorOf: async () => brands,
      specOf: kindSpec,
      openDialog: { chooseOpenPaths: async () => [] },
      readFile: readImportFile,
      applier,
      events,
    })

    const summary = await desk.resume('p', 'batch-1')
    // Applying from the start: the page shows it so before the run's first progress arrives.
    expect(summary).toMatchObject({ title: 'Import of brands.csv', total: 3, counts: { update: 3 }, applying: true })
    const first = desk.rows(summary.planId, 0, 10).rows
    expect(first.map((row) => [row.row, row.action, row.changes])).toEqual([
      [1, 'update', { name: ['Brand 1', 'Renamed 1'] }],
      [2, 'update', { name: ['Brand 2', 'Renamed 2'] }],
      [3, 'update', { name: ['Brand 3', 'Renamed 3'] }],
    ])
    expect(first[0]?.outcome).toEqual({ status: 'applied', id: 1, reason: null, candidates: [] })

    expect(await finished).toMatchObject({ planId: summary.planId, batch: 'batch-1', finished: true, error: null })
    expect(desk.rows(summary.planId, 0, 10).rows.map((row) => row.outcome?.status)).toEqual(['applied', 'applied', 'applied'])
    // Row 1 was not sent again.
    expect(workflow.calls.filter((call) => call.startsWith('update'))).toHaveLength(2)
  })

  it('a row with an unknown outcome is found by its outcome and settled on the same plan: "it was created as N"', async () => {
    const workflow = createFakeWorkflow([{ id: 9, name: 'DUPCHECK-1' }])
    const entity = { name: 'DUPCHECK-1', is_open_auction_allowed: true, is_pmp_allowed: true }
    const nameless: PlannedRow = { row: 2, action: 'create', id: null, changes: { name: [null, entity.name] }, entity, before: null, errors: [] }
    const writer = await journals.start({ ...header, rows: [nameless, rename(3, brand(1))] })
    await writer.sending(2)
    await writer.close()
    workflow.entities.set('1', brand(1))
    const events = createEventHub()
    const ends: Array<EventPayload<'onBulkProgress'>> = []
    let ended = (): void => undefined
    events.subscribe((event, payload) => {
      const progress = payload as EventPayload<'onBulkProgress'>
      if (event === 'onBulkProgress' && progress.finished) {
        ends.push(progress)
        ended()
      }
    })
    const nextEnd = (): Promise<void> => new Promise((resolve) => (ended = resolve))
    const applier = createBulkApplier({ workflowFor: async () => workflow, journals, changeLog: { record: async () => undefined } })
    const desk = createBulkDesk({
      mirrorOf: async () => [],
      specOf: kindSpec,
      openDialog: { chooseOpenPaths: async () => [] },
      readFile: readImportFile,
      applier,
      events,
    })

    let end = nextEnd()
    const summary = await desk.resume('p', 'batch-1')
    await end
    expect(ends[0]?.counts).toMatchObject({ unknown: 1, applied: 1 })
    const unknown = desk.rows(summary.planId, 0, 10, undefined, ['unknown']).rows
    expect(unknown.map((row) => [row.row, row.outcome?.status, row.outcome?.candidates])).toEqual([[2, 'unknown', [{ id: 9, name: 'DUPCHECK-1' }]]])

    end = nextEnd()
    expect(await desk.settle(summary.planId, { row: 2, createdId: 9 })).toMatchObject({ planId: summary.planId, applying: true })
    await end
    expect(ends[1]?.counts).toMatchObject({ unknown: 0, applied: 2 })
    expect(desk.rows(summary.planId, 0, 10, undefined, ['unknown']).rows).toEqual([])
    expect(workflow.calls.filter((call) => call.startsWith('create'))).toEqual([])
    expect(await applier.unfinished('p')).toEqual([])
    await expect(desk.settle(summary.planId, { row: 2, createdId: 9 })).rejects.toThrow(/Row 2 is not waiting for a decision/)
  })
})
