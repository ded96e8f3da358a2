import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ChangeLog, ChangeRecord } from '../../../main/services/bulk/apply-types'
import { createChangeLog } from '../../../main/services/changes/change-log'
import { descriptorsOn } from '../../support/descriptors'

/** The change log: per connection, newest first with paging, filters, CSV, batches, bounded and torn-line-proof reads, and revert plans. */

let folder: string
let log: ChangeLog
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'adops-changes-'))
  log = createChangeLog({ folder })
})
afterEach(async () => {
  await log.close()
  await rm(folder, { recursive: true, force: true })
})

let counter = 0
function change(fields: Partial<ChangeRecord>): ChangeRecord {
  counter += 1
  return {
    change: `c${String(counter).padStart(3, '0')}`,
    batch: 'b1',
    source: 'import',
    title: 'Import of brands.csv',
    at: `2026-11-2${Math.min(9, counter)}T10:00:00.000Z`,
    profileId: 'p1',
    kind: 'brands',
    id: counter,
    before: { id: counter, name: 'Old' },
    after: { id: counter, name: 'New' },
    outcome: 'applied',
    ...fields,
  }
}

describe('change log', () => {
  // Each connection's log stays open for appending while the app runs; the app's and the command
  // line's close() must let go of it (a handle left to the garbage collector is a leaked
  // descriptor, and on Windows a log folder that cannot be removed).
  it.skipIf(process.platform !== 'linux')('close() syncs and closes every log it kept open, and a later record opens it again', async () => {
    await log.record([change({ profileId: 'p1' }), change({ profileId: 'p2' })])
    const first = path.join(folder, 'p1.jsonl')
    expect(await descriptorsOn(first)).toBe(1)
    expect(await descriptorsOn(path.join(folder, 'p2.jsonl'))).toBe(1)
    await log.close()
    expect(await descriptorsOn(first)).toBe(0)
    expect(await descriptorsOn(path.join(folder, 'p2.jsonl'))).toBe(0)
    await log.record([change({ profileId: 'p1' })])
    expect((await log.list('p1', {})).total).toBe(2)
  })

  it('lists newest first with paging; per connection', async () => {
    const records = [1, 2, 3, 4, 5].map(() => change({}))
    await log.record(records)
    await log.record([change({ profileId: 'p2' })])
    const page = await log.list('p1', { offset: 1, limit: 2 })
    expect(page.total).toBe(5)
    expect(page.records.map((record) => record.change)).toEqual([records[3]?.change, records[2]?.change])
    expect((await log.list('p2', {})).total).toBe(1)
  })

  it('filters by since, kind, batch, outcome and words in the values', async () => {
    counter = 0
    await log.record([
      change({ kind: 'publishers', after: { id: 1, name: 'Acme Media' } }),
      change({ batch: 'b2', outcome: 'failed', reason: 'Refused.' }),
      change({ batch: 'b2' }),
    ])
    expect((await log.list('p1', { kind: 'publishers' })).total).toBe(1)
    expect((await log.list('p1', { batch: 'b2' })).total).toBe(2)
    expect((await log.list('p1', { outcome: 'failed' })).records[0]?.change).toBe('c002')
    expect((await log.list('p1', { since: '2026-11-22' })).records.map((record) => record.change)).toEqual(['c003', 'c002'])
    expect((await log.list('p1', { text: 'acme MEDIA' })).records.map((record) => record.change)).toEqual(['c001'])
  })

  it("lists one entity's changes by its id, numbers and text alike: the drawer's newest applied change", async () => {
    counter = 0
    await log.record([
      change({ id: 7, at: '2026-11-21T10:00:00.000Z' }),
      change({ id: 8 }),
      change({ id: '7', at: '2026-11-23T10:00:00.000Z' }),
      change({ id: 7, kind: 'publishers' }),
      change({ id: 7, outcome: 'failed', reason: 'Refused.' }),
      change({ id: null, outcome: 'failed', reason: 'Refused.' }),
    ])
    const found = await log.list('p1', { kind: 'brands', id: 7 })
    expect(found.records.map((record) => record.change)).toEqual(['c005', 'c003', 'c001'])
    expect((await log.list('p1', { kind: 'brands', id: '7', outcome: 'applied', limit: 1 })).records.map((record) => record.change)).toEqual(['c003'])
  })

  it('skips a torn last line and keeps appending on a line of its own', async () => {
    await log.record([change({})])
    await appendFile(path.join(folder, 'p1.jsonl'), '{"change":"torn","bat')
    // The next start (a new process) finds the torn line.
    const again = createChangeLog({ folder })
    await again.record([change({})])
    expect((await again.list('p1', {})).total).toBe(2)
    await again.close()
  })

  it('reads only the newest part of a log over its cap', async () => {
    const small = createChangeLog({ folder, maxReadBytes: 600 })
    for (let index = 0; index < 10; index += 1) await small.record([change({})])
    const { total, records } = await small.list('p1', {})
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThan(10)
    expect(records[0]?.change).toBe(`c${String(counter).padStart(3, '0')}`)
    await small.close()
  })

  it('exports every match as CSV, formula-looking values neutralised', async () => {
    await log.record([change({ outcome: 'failed', reason: '=HYPERLINK("x")' }), change({ outcome: 'failed', reason: 'No, said the platform.' })])
    const file = path.join(folder, 'out', 'changes.csv')
    expect(await log.exportCsv('p1', {}, file)).toEqual({ rows: 2 })
    const lines = (await readFile(file, 'utf8')).split('\r\n')
    expect(lines[0]).toBe('change,batch,source,title,at,kind,id,outcome,reason,before,after')
    expect(lines[1]).toContain('failed,"No, said the platform."')
    expect(lines[2]).toContain(`failed,"'=HYPERLINK(""x"")"`)
  })

  it('summarises batches, newest first, with their titles', async () => {
    await log.record([
      change({ batch: 'a', title: 'First' }),
      change({ batch: 'a', title: 'First' }),
      change({ batch: 'z', title: 'Second', source: 'single' }),
    ])
    expect(await log.batches('p1')).toEqual([
      expect.objectContaining({ batch: 'z', title: 'Second', source: 'single', changes: 1 }),
      expect.objectContaining({ batch: 'a', title: 'First', changes: 2 }),
    ])
  })
})

describe('what a revert undid', () => {
  it('marks a change a revert undid, and counts what each batch has left to revert', async () => {
    const updated = change({ batch: 'b1', id: 4 })
    const failed = change({ batch: 'b1', id: 5, outcome: 'failed' })
    const revert = change({ batch: 'r1', source: 'revert', id: 4, before: updated.after, after: updated.before, reverts: updated.change })
    await log.record([updated, failed, revert])
    expect((await log.list('p1', {})).reverted).toEqual([updated.change])
    const left = Object.fromEntries((await log.batches('p1')).map((batch) => [batch.batch, batch.revertible]))
    expect(left).toEqual({ b1: 0, r1: 1 })

    // Reverting the revert redoes the change: it may be reverted again, the revert may not.
    const redo = change({ batch: 'r2', source: 'revert', id: 4, before: revert.after, after: revert.before, reverts: revert.change })
    await log.record([redo])
    expect((await log.list('p1', {})).reverted).toEqual([revert.change])
    expect(Object.fromEntries((await log.batches('p1')).map((batch) => [batch.batch, batch.revertible]))).toEqual({ b1: 1, r1: 0, r2: 1 })
  })

  it('plans no second revert of a change already reverted, and says so', async () => {
    const deleted = change({ batch: 'b1', id: 9, before: { id: 9, name: 'Gone' }, after: null })
    await log.record([deleted, change({ batch: 'r1', source: 'revert', id: 10, before: null, after: { id: 10, name: 'Gone' }, reverts: deleted.change })])
    const plan = await log.planRevert('p1', { batch: 'b1' })
    expect(plan.rows).toEqual([])
    expect(plan.problems).toEqual([expect.stringContaining('was reverted already')])
  })
})

describe('planRevert', () => {
  it('an update goes back to its previous values, guarded by the recorded after', async () => {
    const record = change({ before: { id: 5, name: 'Old', external_id: 'X' }, after: { id: 5, name: 'New', external_id: 'X' }, id: 5 })
    await log.record([record])
    const plan = await log.planRevert('p1', { change: record.change })
    expect(plan.rows).toEqual([
      {
        row: 1,
        action: 'update',
        id: 5,
        changes: { name: ['New', 'Old'] },
        entity: { id: 5, name: 'Old', external_id: 'X' },
        before: record.after,
        errors: [],
        reverts: record.change,
      },
    ])
    expect(plan.problems).toEqual([])
  })

  it('a delete is created again without id and read-only fields, saying the platform gives a new id', async () => {
    const record = change({ id: 9, before: { id: 9, name: 'Gone', external_id: 'G' }, after: null })
    await log.record([record])
    const plan = await log.planRevert('p1', { change: record.change })
    expect(plan.rows).toEqual([
      {
        row: 1,
        action: 'create',
        id: null,
        changes: { name: [null, 'Gone'], external_id: [null, 'G'] },
        entity: { name: 'Gone', external_id: 'G' },
        before: null,
        errors: [],
        reverts: record.change,
      },
    ])
    expect(plan.problems).toEqual([expect.stringContaining('new ids')])
  })

  it('a create becomes a delete; a whole batch is undone newest first; failed writes have nothing to revert', async () => {
    const created = change({ batch: 'bx', id: 3, before: null, after: { id: 3, name: 'Made' } })
    const updated = change({ batch: 'bx', id: 4 })
    const failed = change({ batch: 'bx', id: 5, outcome: 'failed' })
    await log.record([created, updated, failed])
    const plan = await log.planRevert('p1', { batch: 'bx' })
    expect(plan.title).toBe('Revert of Import of brands.csv')
    expect(plan.rows.map((row) => [row.action, row.id])).toEqual([
      ['update', 4],
      ['delete', 3],
    ])
    expect(plan.rows[1]).toMatchObject({ before: { id: 3, name: 'Made' } })
    expect(plan.problems).toEqual([expect.stringContaining('was not applied (failed)')])
  })

  it('an unknown change is not found', async () => {
    await expect(log.planRevert('p1', { change: 'nope' })).rejects.toMatchObject({ code: 'not_found' })
  })
})
