import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Entity } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { createBulkApplier } from '../../../main/services/bulk/apply'
import type { ApplyWorkflow } from '../../../main/services/bulk/apply-row'
import { createJournalStore, journalsFolder } from '../../../main/services/bulk/journal'
import type { PlannedRow } from '../../../main/services/bulk/plan'
import { changesFolder, createChangeLog } from '../../../main/services/changes/change-log'
import { createConnection } from '../../../main/services/connection/connection'
import { isAppError } from '../../../main/services/errors'
import { createHttpClient, type HttpClient } from '../../../main/services/http/client'

/**
 * A thousand updates against the demo backend with a per-token budget of requests per second:
 * the platform answers 429 with Retry-After once the batch goes faster, the batch waits it out,
 * and every row is applied, none failed, each recorded once in the change log.
 */

let sandbox: Sandbox
let userData: string
let http: HttpClient

beforeAll(async () => {
  // Large: publishers past the seeded 40 are made on demand, so a thousand of them cost nothing to start.
  sandbox = await startSandbox({ port: 0, scale: 'large' })
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-bulk-apply-'))
  http = createHttpClient({ retry: { baseDelayMs: 5, maxDelayMs: 50 } })
})
afterAll(async () => {
  await http.close()
  await sandbox.close()
  await rm(userData, { recursive: true, force: true })
})

describe('bulk apply against the demo backend', () => {
  it('applies 1,000 updates through a 429 with Retry-After, with zero failures', async () => {
    const { info } = sandbox
    const connection = createConnection({
      settings: { baseUrl: info.base_url, authUrl: info.auth_url, reportUrl: info.report_url, serviceId: info.service_id, reportServiceId: null },
      credentials: async () => ({ method: 'password', username: 'demo', password: 'demo' }),
      http,
    })
    const publishers: Entity[] = []
    for await (const page of connection.workflow.list('publishers', { query: { page_size: '1000' } })) {
      publishers.push(...page)
      break
    }
    expect(publishers).toHaveLength(1000)
    const rows: PlannedRow[] = publishers.map((publisher, index) => ({
      row: index + 2,
      action: 'update',
      id: publisher.id,
      changes: { name: [publisher.name, `${String(publisher.name)} (bulk)`] },
      entity: { ...publisher, name: `${String(publisher.name)} (bulk)` },
      before: publisher,
      errors: [],
    }))

    // The writes that came back 429 (reads are waited out inside the client already). A budget of
    // 2 requests a second makes the first writes meet 429 whatever the machine's speed; after the
    // first one the budget is lifted, so the other 999 rows do not take eight minutes.
    let throttled = 0
    const counting: ApplyWorkflow = {
      ...connection.workflow,
      list: (kind, options) => connection.workflow.list(kind, options),
      update: (kind, id, entity, options) =>
        connection.workflow.update(kind, id, entity, options).catch((error: unknown) => {
          if (isAppError(error) && error.code === 'throttled') {
            throttled += 1
            sandbox.setFaults({ throttle_per_s: 0 })
          }
          throw error
        }),
    }
    const changes = createChangeLog({ folder: changesFolder(userData) })
    // The back-off on a clock of its own: the batch asks to wait out each Retry-After and its clock
    // moves on by that much at once, so the test proves the wait without spending it for real.
    const waits: number[] = []
    let waited = 0
    const applier = createBulkApplier({
      workflowFor: async () => counting,
      journals: createJournalStore({ folder: journalsFolder(userData) }),
      changeLog: changes,
      concurrency: 4,
      clock: () => Date.now() + waited,
      sleep: async (milliseconds) => {
        waits.push(milliseconds)
        waited += milliseconds
      },
    })
    sandbox.setFaults({ throttle_per_s: 2 })
    try {
      const summary = await applier.apply(
        { profileId: 'sandbox', kind: 'publishers', source: 'edit', title: 'Rename 1,000 publishers', rows },
        { signal: new AbortController().signal },
      )
      expect(summary.counts).toEqual({ applied: 1000, conflict: 0, failed: 0, skipped: 0, cancelled: 0, unknown: 0 })
    } finally {
      sandbox.setFaults({ throttle_per_s: 0 })
    }
    expect(throttled).toBeGreaterThan(0)
    // The platform's Retry-After (whole seconds, at most one here) was waited out before sending again.
    expect(waits.length).toBeGreaterThan(0)
    for (const wait of waits) {
      expect(wait).toBeGreaterThan(0)
      expect(wait).toBeLessThanOrEqual(1000)
    }
    const { total, records } = await changes.list('sandbox', { limit: 2000 })
    expect(total).toBe(1000)
    expect(new Set(records.map((record) => record.id)).size).toBe(1000)
    const sample = publishers[500] as Entity
    expect((await connection.workflow.get('publishers', sample.id)).name).toBe(`${String(sample.name)} (bulk)`)
    expect(await applier.unfinished('sandbox')).toEqual([])
    await changes.close()
  })
})
