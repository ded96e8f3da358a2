import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBulkApplier } from '../../../main/services/bulk/apply'
import type { ApplyRequest, ChangeRecord, RowOutcome } from '../../../main/services/bulk/apply-types'
import { createJournalStore, type JournalStore } from '../../../main/services/bulk/journal'
import type { PlannedRow } from '../../../main/services/bulk/plan'
import { AppError } from '../../../main/services/errors'
import { createFakeWorkflow, lostAnswer, type FakeWorkflow } from './fake-workflow'

/**
 * A create without an external_id whose answer was lost (the review's M6: a 504 after the
 * platform created the brand). Nothing can look it up for sure, so it is never sent again by
 * itself: its outcome is `unknown`, with the entities the platform now has under its name,
 * until the user says "it was created: it is id N" or "send it again".
 */

let folder: string
let journals: JournalStore
let recorded: ChangeRecord[]
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'adops-lost-create-'))
  journals = createJournalStore({ folder })
  recorded = []
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

/** A row of an id-matched file with an empty id: a create with no external_id. */
const namelessCreate = (row: number, name: string): PlannedRow => {
  const entity = { name, is_open_auction_allowed: true, is_pmp_allowed: true }
  return { row, action: 'create', id: null, changes: { name: [null, name] }, entity, before: null, errors: [] }
}
const request = (rows: PlannedRow[]): ApplyRequest => ({ profileId: 'p1', kind: 'brands', source: 'import', title: 'Import of brands.csv', rows })
const posts = (workflow: FakeWorkflow): string[] => workflow.calls.filter((call) => call.startsWith('create'))

function applier(workflow: FakeWorkflow) {
  return createBulkApplier({
    workflowFor: async () => workflow,
    journals,
    changeLog: { record: async (records) => void recorded.push(...records) },
    concurrency: 1,
  })
}

/** The first run: the platform creates the brand, then the answer is lost; a network error that is not the row's own stops the batch. */
async function lostThenStopped(workflow: FakeWorkflow): Promise<string> {
  let lost = false
  workflow.after = (call) => {
    if (call.startsWith('create') && !lost) {
      lost = true
      throw lostAnswer()
    }
  }
  // The listing that would find candidates fails too: the network went away for good.
  workflow.before = (call) => {
    if (call === 'list' && lost) throw new AppError('network', 'The platform is offline.', { errorCode: 'ECONNREFUSED' })
  }
  await expect(applier(workflow).apply(request([namelessCreate(2, 'DUPCHECK-1')]), { signal: new AbortController().signal })).rejects.toMatchObject({
    code: 'network',
  })
  const [unfinished] = await applier(workflow).unfinished('p1')
  expect(unfinished).toBeDefined()
  workflow.before = undefined
  workflow.after = undefined
  return unfinished?.batch ?? ''
}

async function resumed(workflow: FakeWorkflow, batch: string) {
  const outcomes: RowOutcome[] = []
  const summary = await applier(workflow).resume('p1', batch, { signal: new AbortController().signal, onOutcome: (outcome) => outcomes.push(outcome) })
  return { summary, outcomes }
}

describe('a create whose answer was lost and that has no external_id', () => {
  it('resumed: nothing is sent again, the row is unknown with the candidate the platform now has, and the batch stays unfinished', async () => {
    const workflow = createFakeWorkflow([{ id: 1, name: 'Other' }])
    const batch = await lostThenStopped(workflow)
    expect(posts(workflow)).toHaveLength(1)
    const { summary, outcomes } = await resumed(workflow, batch)
    expect(posts(workflow)).toHaveLength(1)
    expect(outcomes).toEqual([
      expect.objectContaining({
        row: 2,
        status: 'unknown',
        id: null,
        candidates: [{ id: 2, name: 'DUPCHECK-1' }],
        reason: expect.stringContaining('check the list'),
      }),
    ])
    expect(summary.counts).toMatchObject({ unknown: 1, applied: 0 })
    expect(recorded).toEqual([])
    // Resumed again (the app restarted): still unknown, still not sent, until the user decides.
    const again = await resumed(workflow, batch)
    expect(again.outcomes[0]).toMatchObject({ status: 'unknown' })
    expect(posts(workflow)).toHaveLength(1)
    expect(await applier(workflow).unfinished('p1')).toHaveLength(1)
  })

  it('in the run that lost it: the row is unknown at once, the rest of the batch goes on, nothing is sent twice', async () => {
    const workflow = createFakeWorkflow([])
    workflow.after = (call) => {
      if (call.startsWith('create') && posts(workflow).length === 1) throw lostAnswer()
    }
    const outcomes: RowOutcome[] = []
    await applier(workflow).apply(request([namelessCreate(2, 'DUPCHECK-1'), namelessCreate(3, 'Second')]), {
      signal: new AbortController().signal,
      onOutcome: (outcome) => outcomes.push(outcome),
    })
    expect(posts(workflow)).toHaveLength(2)
    expect(outcomes.find((outcome) => outcome.row === 2)).toMatchObject({ status: 'unknown', candidates: [{ id: 1, name: 'DUPCHECK-1' }] })
    expect(outcomes.find((outcome) => outcome.row === 3)).toMatchObject({ status: 'applied', id: 2 })
  })

  it('"it was created: it is id N": the row is applied as N, recorded once, and the finished journal is removed', async () => {
    const workflow = createFakeWorkflow([])
    const batch = await lostThenStopped(workflow)
    await resumed(workflow, batch)
    const outcomes: RowOutcome[] = []
    const summary = await applier(workflow).settle(
      'p1',
      batch,
      { row: 2, createdId: 1 },
      { signal: new AbortController().signal, onOutcome: (outcome) => outcomes.push(outcome) },
    )
    expect(outcomes).toEqual([expect.objectContaining({ row: 2, status: 'applied', id: 1 })])
    expect(summary.counts).toMatchObject({ applied: 1, unknown: 0 })
    expect(posts(workflow)).toHaveLength(1)
    expect(recorded).toEqual([expect.objectContaining({ id: 1, before: null, after: expect.objectContaining({ name: 'DUPCHECK-1' }), outcome: 'applied' })])
    expect(await applier(workflow).unfinished('p1')).toEqual([])
  })

  it('"send it again", said explicitly: one more create, applied', async () => {
    const workflow = createFakeWorkflow([])
    const batch = await lostThenStopped(workflow)
    await resumed(workflow, batch)
    const summary = await applier(workflow).settle('p1', batch, { row: 2, createdId: null }, { signal: new AbortController().signal })
    expect(summary.counts).toMatchObject({ applied: 1, unknown: 0 })
    expect(posts(workflow)).toHaveLength(2)
  })

  it('a decision on a row whose outcome is not unknown is refused with a sentence, and nothing is sent', async () => {
    const workflow = createFakeWorkflow([])
    const batch = await lostThenStopped(workflow)
    await expect(applier(workflow).settle('p1', batch, { row: 9, createdId: null }, { signal: new AbortController().signal })).rejects.toThrow(
      /Row 9 of this batch is not waiting for a decision/,
    )
    expect(posts(workflow)).toHaveLength(1)
  })
})
