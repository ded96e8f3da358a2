import { appendFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Entity } from '@contract'
import { createBulkApplier } from '../../../main/services/bulk/apply'
import type { ChangeLog, ChangeRecord } from '../../../main/services/bulk/apply-types'
import { createJournalStore, type JournalHeader, type JournalStore } from '../../../main/services/bulk/journal'
import type { PlannedRow } from '../../../main/services/bulk/plan'
import { createChangeLog } from '../../../main/services/changes/change-log'
import { createFakeWorkflow, type FakeWorkflow } from './fake-workflow'

/**
 * Files in the data folder written by hand (the review's L2 and its change-log note), and the
 * revert of a create edited since (L4): a journal that names another connection than its folder
 * is refused, nothing sent; a change record that is not a whole record is refused by planRevert;
 * a create edited on the platform since is a conflict when reverted, never deleted.
 */

let folder: string
let journals: JournalStore
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'adops-tampered-'))
  journals = createJournalStore({ folder: path.join(folder, 'bulk-journals'), now: () => new Date('2026-12-07T10:00:00.000Z') })
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

const injected: PlannedRow = {
  row: 1,
  action: 'create',
  id: null,
  changes: { name: [null, 'INJECTED-BY-JOURNAL'] },
  entity: { name: 'INJECTED-BY-JOURNAL', external_id: 'INJ-1' },
  before: null,
  errors: [],
}
const header = (fields: Partial<JournalHeader>): JournalHeader => ({
  version: 1,
  batch: 'b1',
  profileId: 'A',
  kind: 'brands',
  source: 'import',
  title: 'Import of x.csv',
  fingerprint: null,
  startedAt: '2026-12-07T09:00:00.000Z',
  rows: [injected],
  ...fields,
})

/** A journal written by hand under `bulk-journals/<folderProfile>/<fileBatch>.jsonl`. */
async function handWritten(folderProfile: string, fileBatch: string, first: unknown, more = ''): Promise<string> {
  const profileFolder = path.join(folder, 'bulk-journals', folderProfile)
  await mkdir(profileFolder, { recursive: true })
  await writeFile(path.join(profileFolder, `${fileBatch}.jsonl`), `${JSON.stringify(first)}\n${more}`)
  return profileFolder
}

function applierOver(workflows: Record<string, FakeWorkflow>) {
  return createBulkApplier({
    workflowFor: async (profileId) => workflows[profileId] ?? createFakeWorkflow([]),
    journals,
    changeLog: { record: async () => undefined },
  })
}

describe('a journal written by hand', () => {
  it('under folder A naming connection B: refused with a sentence, moved aside, nothing sent to either', async () => {
    const [a, b] = [createFakeWorkflow([]), createFakeWorkflow([])]
    const profileFolder = await handWritten('A', 'b1', header({ profileId: 'B' }))
    const bulk = applierOver({ A: a, B: b })
    await expect(bulk.resume('A', 'b1', { signal: new AbortController().signal })).rejects.toThrow(
      /names another connection or batch than the folder and file it is kept in .* nothing was sent for it\. It was moved aside as bulk-journals\/A\/b1\.jsonl\.corrupt-2026-12-07T10-00-00-000Z/,
    )
    expect([...a.calls, ...b.calls]).toEqual([])
    expect(await readdir(profileFolder)).toEqual(['b1.jsonl.corrupt-2026-12-07T10-00-00-000Z'])
    expect(await bulk.unfinished('A')).toEqual([])
  })

  it('whose header names another batch than its file name is refused too, and not listed', async () => {
    await handWritten('A', 'b1', header({ batch: 'b2' }))
    expect(await applierOver({}).unfinished('A')).toEqual([])
    await expect(journals.read('A', 'b1')).rejects.toMatchObject({ code: 'not_found' })
  })

  it('whose header or a line fails the schema (a kind that is not a path name, a row number that is text) is refused', async () => {
    await handWritten('A', 'b1', header({ kind: '../profiles' }))
    await expect(journals.read('A', 'b1')).rejects.toThrow(/its first line is damaged, or was not written by AdOps Desk/)
    await handWritten('A', 'b2', header({ batch: 'b2' }), `${JSON.stringify({ sending: '1' })}\n`)
    await expect(journals.read('A', 'b2')).rejects.toThrow(/holds a line AdOps Desk did not write \(line 2\)/)
  })

  it('its own journal, torn last line and all, still reads', async () => {
    await handWritten('A', 'b1', header({}), `${JSON.stringify({ sending: 1 })}\n{"done":1,"sta`)
    await appendFile(path.join(folder, 'bulk-journals', 'A', 'b1.jsonl'), '')
    expect([...(await journals.read('A', 'b1')).sending]).toEqual([1])
  })
})

describe('a change record written by hand', () => {
  let log: ChangeLog
  beforeEach(() => {
    log = createChangeLog({ folder: path.join(folder, 'changes') })
  })
  afterEach(async () => {
    await log.close()
  })
  const record = (fields: Record<string, unknown>): Record<string, unknown> => ({
    change: 'c1',
    batch: 'b1',
    source: 'single',
    at: '2026-12-07T09:00:00.000Z',
    profileId: 'p1',
    kind: 'brands',
    id: 7,
    before: null,
    after: { id: 7, name: 'Made' },
    outcome: 'applied',
    ...fields,
  })
  async function written(...records: Array<Record<string, unknown>>): Promise<void> {
    await mkdir(path.join(folder, 'changes'), { recursive: true })
    await writeFile(path.join(folder, 'changes', 'p1.jsonl'), records.map((one) => `${JSON.stringify(one)}\n`).join(''))
  }

  it('with an id that is not an id, or a kind that is not a kind: planRevert refuses it with a sentence', async () => {
    await written(record({ id: { $ne: 1 } }))
    await expect(log.planRevert('p1', { change: 'c1' })).rejects.toThrow(/The change c1 in this connection’s change log is damaged .* cannot be reverted/)
    await written(record({ kind: 'brands/../publishers' }))
    await expect(log.planRevert('p1', { change: 'c1' })).rejects.toMatchObject({ code: 'storage' })
  })

  it('in a batch: the whole batch is refused, not reverted in part', async () => {
    await written(record({ change: 'c0', id: 6 }), record({ before: 'not an entity' }))
    await expect(log.planRevert('p1', { batch: 'b1' })).rejects.toThrow(/The change c1 in this connection’s change log is damaged/)
  })

  it('a whole record still reverts', async () => {
    await written(record({}))
    expect((await log.planRevert('p1', { change: 'c1' })).rows).toEqual([expect.objectContaining({ action: 'delete', id: 7 })])
  })
})

describe('reverting a create', () => {
  const made: Entity = { id: 7, name: 'Made', is_open_auction_allowed: true, is_pmp_allowed: false }
  const created: ChangeRecord = {
    change: 'c1',
    batch: 'b1',
    source: 'single',
    at: '2026-12-07T09:00:00.000Z',
    profileId: 'p1',
    kind: 'brands',
    id: 7,
    before: null,
    after: made,
    outcome: 'applied',
  }
  async function revert(workflow: FakeWorkflow) {
    const log = createChangeLog({ folder: path.join(folder, 'changes') })
    await log.record([created])
    const plan = await log.planRevert('p1', { change: 'c1' })
    await log.close()
    const outcomes: Array<{ status: string; reason?: string }> = []
    await createBulkApplier({ workflowFor: async () => workflow, journals, changeLog: { record: async () => undefined } }).apply(
      { profileId: 'p1', kind: plan.kind, source: 'revert', title: plan.title, rows: plan.rows },
      { signal: new AbortController().signal, onOutcome: (outcome) => outcomes.push(outcome) },
    )
    return outcomes
  }

  it('edited on the platform since: a conflict naming the fields, and no DELETE is sent', async () => {
    const workflow = createFakeWorkflow([{ ...made, name: 'Renamed by a colleague' }])
    const outcomes = await revert(workflow)
    expect(outcomes).toEqual([expect.objectContaining({ status: 'conflict', reason: expect.stringContaining('(name), so nothing was sent') })])
    expect(workflow.calls.filter((call) => call.startsWith('delete'))).toEqual([])
    expect(workflow.entities.has('7')).toBe(true)
  })

  it('unedited (the platform adding a field of its own is no edit): deleted', async () => {
    const workflow = createFakeWorkflow([{ ...made, updated_at: '2026-12-07' }])
    expect(await revert(workflow)).toEqual([expect.objectContaining({ status: 'applied' })])
    expect(workflow.calls).toEqual(['get 7', 'delete 7'])
  })
})

describe('a journal the applier writes', () => {
  it('is checked against its reader’s schema first: a header or line the resume would refuse is never written', async () => {
    const hostile = header({ kind: '../profiles' as JournalHeader['kind'] })
    await expect(journals.start(hostile)).rejects.toMatchObject({
      code: 'storage',
      message: expect.stringMatching(/^The batch’s journal was not saved because/),
    })
    expect(await readdir(path.join(folder, 'bulk-journals')).catch(() => [])).toEqual([])

    const writer = await journals.start(header({}))
    await writer.sending(1)
    await expect(writer.sending(Number.NaN)).rejects.toMatchObject({
      code: 'storage',
      message: expect.stringMatching(/^The batch’s journal line was not saved/),
    })
    await writer.close()
    expect((await journals.read('A', 'b1')).header.batch).toBe('b1')
  })
})
