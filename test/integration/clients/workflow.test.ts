import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readErrorBody } from '../../../main/services/http/client'
import { errorFromHttp } from '../../../main/services/http/errors'
import { createWorkflowClient } from '../../../main/services/workflow/client'
import type { Entity } from '../../../main/services/workflow/entities'
import { fastHttp, recordWire, startHarness, type Harness } from './support/sandbox'
import { caught, collect } from './support/outcomes'

let harness: Harness

beforeAll(async () => {
  harness = await startHarness()
})
afterAll(async () => {
  await harness.close()
})
afterEach(() => {
  harness.sandbox.reset()
})

describe('workflow client over the sandbox', () => {
  it('lists every page by following next, with progress', async () => {
    const { workflow } = harness.connect()
    const progress: Array<{ fetched: number; count: number }> = []
    const pageSizes: number[] = []
    const all: Entity[] = []
    for await (const page of workflow.list('publishers', { query: { page_size: '7' }, onProgress: (step) => progress.push(step) })) {
      pageSizes.push(page.length)
      all.push(...page)
    }
    const count = progress.at(-1)?.count ?? -1
    expect(all).toHaveLength(count)
    expect(new Set(all.map((entity) => entity.id)).size).toBe(count)
    expect(pageSizes.slice(0, -1).every((size) => size === 7)).toBe(true)
    expect(progress.map((step) => step.fetched)).toEqual(pageSizes.map((_, index) => pageSizes.slice(0, index + 1).reduce((a, b) => a + b, 0)))
  })

  it('sends no query parameter it was not told about', async () => {
    const wire = recordWire()
    try {
      const { workflow } = harness.connect()
      await collect(workflow.list('brands'))
      const lists = wire.requests.filter((request) => request.path.includes('/brands/'))
      expect(lists[0]?.path).toMatch(/\/brands\/$/)
      // Later pages are the sandbox's own next links, taken as given.
      for (const request of lists.slice(1)) expect(request.path).toMatch(/\/brands\/\?page=\d+$/)
    } finally {
      wire.stop()
    }
  })

  it('stops fetching when the caller stops iterating', async () => {
    const wire = recordWire()
    try {
      const { workflow } = harness.connect()
      for await (const page of workflow.list('publishers', { query: { page_size: '5' } })) {
        expect(page).toHaveLength(5)
        break
      }
      expect(wire.count('GET', '/publishers/')).toBe(1)
    } finally {
      wire.stop()
    }
  })

  it('creates, reads, updates with the whole entity, and deletes', async () => {
    const { workflow } = harness.connect()
    const created = await workflow.create('brands', {
      name: 'Acme Soap',
      is_open_auction_allowed: true,
      is_pmp_allowed: false,
      external_id: 'ACME-1',
      advertiser_domains: ['acme.example'],
    })
    expect(typeof created.id).toBe('number')
    expect(created).toMatchObject({ name: 'Acme Soap', external_id: 'ACME-1' })

    const fetched = await workflow.get('brands', created.id)
    await workflow.update('brands', created.id, { ...fetched, name: 'Acme Soap Ltd' })
    expect(await workflow.get('brands', created.id)).toMatchObject({ name: 'Acme Soap Ltd', advertiser_domains: ['acme.example'] })

    await workflow.delete('brands', created.id)
    expect((await caught(workflow.get('brands', created.id))).code).toBe('not_found')
  })

  it('treats entity kinds as data: any path name is a kind, anything else is refused before a request', async () => {
    const { workflow } = harness.connect()
    const unknown = await caught(collect(workflow.list('campaigns')))
    expect(unknown.code).toBe('not_found')
    expect(unknown.details?.httpStatus).toBe(404)
    const bad = await caught(collect(workflow.list('../auth')))
    expect(bad.code).toBe('validation')
  })

  it.each(['.', '..', ' .. ', 'a/b', 'a\\b', 'a?b', 'a#b', '%2e', '%2E%2e', '..%2F', 'a%2fb', 'a%5Cb', '%3F', '%23', '%252e'])(
    'refuses the entity id %j before any request is built',
    async (id) => {
      const wire = recordWire()
      try {
        const { workflow } = harness.connect()
        const calls: Array<() => Promise<unknown>> = [
          () => workflow.get('publishers', id),
          () => workflow.update('publishers', id, { id, name: 'x' }),
          () => workflow.delete('publishers', id),
        ]
        for (const call of calls) {
          // update and delete refuse synchronously, like a bad kind; either way nothing is sent.
          const error = await caught(Promise.resolve().then(call))
          expect(error.code).toBe('validation')
          expect(error.message).toMatch(/entity id/i)
        }
        expect(wire.requests).toEqual([])
      } finally {
        wire.stop()
      }
    },
  )

  it('still takes text ids with dots and dashes as ids', async () => {
    const { workflow } = harness.connect()
    expect((await caught(workflow.get('publishers', 'v1.2-beta'))).code).toBe('not_found')
  })
})

describe('workflow errors, each mapped to its case', () => {
  it('400 with a field map keeps the field errors', async () => {
    const { workflow } = harness.connect()
    const error = await caught(workflow.create('brands', { name: '' }))
    expect(error.code).toBe('validation')
    expect(error.details?.httpStatus).toBe(400)
    const fields = error.details?.fields as Record<string, string[]>
    expect(Object.keys(fields).sort()).toEqual(['is_open_auction_allowed', 'is_pmp_allowed', 'name'])
    expect(fields.name?.[0]).toMatch(/blank/)
    expect(error.message).toMatch(/is_pmp_allowed/)
  })

  it('400 with a detail (unsupported query parameter) gives the detail as the reason', async () => {
    const { workflow } = harness.connect()
    const error = await caught(collect(workflow.list('publishers', { query: { ordering: 'name' } })))
    expect(error.code).toBe('validation')
    expect(error.message).toContain('Unsupported query parameter: ordering')
    expect(error.details?.fields).toBeUndefined()
  })

  it('403 for a read-only user', async () => {
    const { workflow } = harness.connect({ credentials: async () => ({ method: 'password', username: 'viewer', password: 'viewer' }) })
    const error = await caught(workflow.create('publishers', { name: 'Nope', url: 'https://nope.example' }))
    expect(error.code).toBe('forbidden')
    expect(error.details?.httpStatus).toBe(403)
  })

  it('404 for a missing entity', async () => {
    const error = await caught(harness.connect().workflow.get('publishers', 99_999_999))
    expect(error.code).toBe('not_found')
  })

  it('405 for a method the resource does not support', async () => {
    // PUT on a collection: the client never does it on its own, so call the pool directly with a real token.
    const connection = harness.connect()
    const token = await connection.tokens.workflow.get()
    const response = await harness.http.request({
      method: 'PUT',
      url: `${harness.settings.baseUrl}/publishers/`,
      headers: { authorization: `Bearer ${token.value}` },
      body: '{}',
      read: false,
    })
    const error = errorFromHttp({ status: response.status, headers: response.headers, body: await readErrorBody(response), context: response.context })
    expect(error.code).toBe('method_not_allowed')
    expect(error.details?.httpStatus).toBe(405)
  })

  it('406 when deleting an entity others depend on', async () => {
    const { workflow } = harness.connect()
    const units = await workflow.list('ad_units', { query: { page_size: '1' } }).next()
    const unit = (units.value as Entity[])[0] as Entity
    const error = await caught(workflow.delete('publishers', unit.publisher as number))
    expect(error.code).toBe('dependents')
    expect(error.message).toMatch(/ad unit/)
  })

  it('409 for a duplicate external_id', async () => {
    const { workflow } = harness.connect()
    const first = await workflow.get('publishers', 1)
    const error = await caught(workflow.create('publishers', { name: 'Copy', url: 'https://copy.example', external_id: first.external_id }))
    expect(error.code).toBe('conflict')
    expect(error.details?.httpStatus).toBe(409)
  })

  it('429 when throttling outlasts the retries, with the wait in details', async () => {
    // A sandbox whose clock stands still: its one-request-per-second budget never refills.
    const frozen = await startHarness({ now: () => new Date('2030-01-01T00:00:00.250Z') })
    frozen.sandbox.setFaults({ throttle_per_s: 1 })
    const connection = frozen.connect({ now: () => Date.parse('2030-01-01T00:00:00.250Z') })
    // Retry-After (≥ 1 s) is more than this pool may wait, so the answer comes back at once.
    const impatient = fastHttp({ retry: { maxRetryAfterMs: 100 } })
    try {
      const workflow = createWorkflowClient({ http: impatient, tokens: connection.tokens.workflow, settings: frozen.settings })
      await workflow.get('publishers', 1)
      const error = await caught(workflow.get('publishers', 1))
      expect(error.code).toBe('throttled')
      expect(error.details?.httpStatus).toBe(429)
      expect(error.details?.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(error.message).toMatch(/Wait \d+ second/)
    } finally {
      await impatient.close()
      await frozen.close()
    }
  })

  it('500 after the retries run out is a server error', async () => {
    harness.sandbox.setFaults({ fail_rate: 1 })
    const error = await caught(harness.connect().workflow.get('publishers', 1))
    expect(error.code).toBe('server')
    expect(error.details?.httpStatus).toBe(500)
  })

  it('504 for a request too large', async () => {
    const { workflow } = harness.connect()
    const error = await caught(workflow.create('publishers', { name: 'Big', url: 'https://big.example', notes: 'x'.repeat(1024 * 1024 + 10) }))
    expect(error.code).toBe('timeout')
    expect(error.details?.httpStatus).toBe(504)
    // A write that timed out at the gateway may or may not have happened: the user is told to look.
    expect(error.details?.outcome).toBe('unknown')
  })

  it('network: a server that is not there is "Nothing answers at"', async () => {
    const connection = harness.connect({ settings: { baseUrl: 'http://127.0.0.1:9/workflow/v1' } })
    await connection.tokens.workflow.get()
    const error = await caught(connection.workflow.get('publishers', 1))
    expect(error.code).toBe('network')
    expect(error.message).toMatch(/^Nothing answers at 127\.0\.0\.1:9\./)
    expect(error.details?.errorCode).toBe('ECONNREFUSED')
  })
})
