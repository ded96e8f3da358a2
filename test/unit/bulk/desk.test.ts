import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Entity, EventPayload } from '@contract'
import { createBulkDesk } from '../../../main/services/bulk/desk'
import { readImportFile } from '../../../main/services/bulk/import-file'
import { kindSpec } from '../../../main/services/entities/kinds'
import { createEventHub } from '../../../main/services/events'
import { createFakeApplier } from '../../support/fake-bulk'

const brands: Entity[] = Array.from({ length: 5 }, (_unused, index) => ({
  id: index + 1,
  name: `Brand ${index + 1}`,
  is_open_auction_allowed: index % 2 === 0,
  is_pmp_allowed: false,
  advertiser_domains: [],
  external_id: `B-${index + 1}`,
}))

async function setup(files: string[] = []) {
  const events = createEventHub()
  const progress: Array<EventPayload<'onBulkProgress'>> = []
  events.subscribe((event, payload) => {
    if (event === 'onBulkProgress') progress.push(payload as EventPayload<'onBulkProgress'>)
  })
  const applier = createFakeApplier()
  let id = 0
  const desk = createBulkDesk({
    mirrorOf: async () => brands,
    specOf: kindSpec,
    openDialog: { chooseOpenPaths: async () => files },
    readFile: readImportFile,
    applier,
    events,
    newId: () => `plan-${++id}`,
    keep: 2,
  })
  const finished = () =>
    new Promise<EventPayload<'onBulkProgress'>>((resolve) =>
      events.subscribe(
        (event, payload) =>
          event === 'onBulkProgress' && (payload as EventPayload<'onBulkProgress'>).finished && resolve(payload as EventPayload<'onBulkProgress'>),
      ),
    )
  return { desk, applier, progress, finished }
}

describe('the bulk desk', () => {
  it('keeps a bulk edit by id and hands it out a page at a time, each row named, with no whole entity crossing', async () => {
    const { desk } = await setup()
    const plan = await desk.planEdit('p', 'brands', [1, 2, 3, 4, 5], { op: 'set', field: 'is_open_auction_allowed', value: 'true' })
    expect(plan).toMatchObject({ planId: 'plan-1', source: 'edit', total: 5, counts: { update: 2, unchanged: 3 }, fileName: null, applying: false })
    const page = desk.rows(plan.planId, 1, 2)
    expect(page.total).toBe(5)
    expect(page.rows).toEqual([
      { row: 2, action: 'update', id: 2, name: 'Brand 2', changes: { is_open_auction_allowed: [false, true] }, errors: [], outcome: null },
      { row: 3, action: 'unchanged', id: 3, name: 'Brand 3', changes: {}, errors: [], outcome: null },
    ])
    expect(desk.rows(plan.planId, 0, 10, ['update']).rows.map((row) => row.row)).toEqual([2, 4])
  })

  it('applies only the selected rows that change something, and reports progress and outcomes', async () => {
    const { desk, applier, progress, finished } = await setup()
    const plan = await desk.planEdit('p', 'brands', [1, 2, 3, 4, 5], { op: 'add', field: 'advertiser_domains', value: 'acme.com' })
    const ended = finished()
    await desk.apply(plan.planId, [2])
    const last = await ended
    expect(applier.requests[0]?.rows.map((row) => row.row)).toEqual([1, 3, 4, 5])
    expect(applier.requests[0]).toMatchObject({ profileId: 'p', kind: 'brands', source: 'edit', title: 'Add acme.com to Advertiser domains of 5 brands' })
    expect(last).toMatchObject({ planId: plan.planId, batch: 'batch-1', done: 4, total: 4, finished: true, cancelled: false, error: null })
    expect(progress.filter((event) => !event.finished).map((event) => event.done)).toEqual([1, 2, 3, 4])
    expect(desk.rows(plan.planId, 0, 2).rows.map((row) => row.outcome)).toEqual([{ status: 'applied', id: 1, reason: null, candidates: [] }, null])
  })

  it('refuses to apply a plan with problems, and forgets the oldest plans', async () => {
    const { desk } = await setup()
    const bad = await desk.planEdit('p', 'brands', [1], { op: 'set', field: 'is_pmp_allowed', value: 'maybe' })
    await expect(desk.apply(bad.planId, [])).rejects.toThrow(/problems to fix first/)
    await desk.planEdit('p', 'brands', [1], { op: 'set', field: 'name', value: 'A' })
    await desk.planEdit('p', 'brands', [1], { op: 'set', field: 'name', value: 'B' })
    expect(() => desk.rows(bad.planId, 0, 1)).toThrow(/no longer kept/)
  })

  it('opens an import through the dialog by file name only, and plans it again with an edited mapping', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'desk-'))
    const first = path.join(folder, 'brands.csv')
    await writeFile(first, 'external_id,Label\nB-1,Renamed\nB-2,Brand 2\n')
    await writeFile(path.join(folder, 'other.csv'), 'x\n1\n')
    const { desk } = await setup([first, path.join(folder, 'other.csv')])
    expect(await desk.openImport('p', 'brands')).toEqual({ status: 'choose', files: ['brands.csv', 'other.csv'] })
    const opened = await desk.openImport('p', 'brands', 'brands.csv')
    if (opened.status !== 'planned') throw new Error('not planned')
    expect(opened.plan).toMatchObject({ fileName: 'brands.csv', source: 'import', title: 'Import of brands.csv', match: 'external_id' })
    expect(opened.plan.problems[0]).toMatch(/Column "Label" matches no field/)
    const again = await desk.replanImport(opened.plan.planId, { Label: 'name' })
    expect(again).toMatchObject({ planId: opened.plan.planId, problems: [], counts: { update: 1, unchanged: 1 } })
    expect(JSON.stringify(again)).not.toContain(folder)
  })
})
