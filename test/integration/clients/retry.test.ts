import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { RetryEvent } from '../../../main/services/http/retry'
import type { RequestContext } from '../../../main/services/http/errors'
import { createWorkflowClient } from '../../../main/services/workflow/client'
import type { Entity } from '../../../main/services/workflow/entities'
import { fastHttp, manualClock, recordWire, startHarness, type Harness } from './support/sandbox'
import { startTinyServer } from './support/tiny-server'
import { caught } from './support/outcomes'
import { recordServerRequests } from '../../support/server-requests'

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

/** Timers still pending: a cancelled retry must not leave its backoff timer behind (it would keep a CLI process alive). */
const pendingTimers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length

async function firstPage(pages: AsyncGenerator<Entity[]>): Promise<Entity[]> {
  const { value } = await pages.next()
  await pages.return(undefined)
  return value ?? []
}

describe('reads are retried', () => {
  it('a 429 is waited out for as long as Retry-After says, then succeeds', async () => {
    // The sandbox's throttle counts per second of its clock; a clock that only moves when the
    // client decides to wait makes "the second request of the second" certain, not a race.
    const clock = manualClock()
    const throttledSandbox = await startHarness({ now: clock.date })
    const retries: Array<RetryEvent & RequestContext> = []
    const http = fastHttp({
      onRetry: (event) => {
        retries.push(event)
        clock.advance(event.delayMs)
      },
    })
    const wire = recordWire()
    try {
      const connection = throttledSandbox.connect({ now: clock.now })
      const workflow = createWorkflowClient({ http, tokens: connection.tokens.workflow, settings: throttledSandbox.settings })
      throttledSandbox.sandbox.setFaults({ throttle_per_s: 1 })
      await workflow.get('publishers', 1)
      const second = await workflow.get('publishers', 2)
      expect(second.id).toBe(2)
      expect(wire.count('GET', '/publishers/2/')).toBe(2)
      expect(wire.answered(429, '/publishers/2/')).toBe(1)
      // The backoff alone would be milliseconds here; the wait chosen is the server's Retry-After.
      expect(retries.map((event) => event.statusCode)).toEqual([429])
      expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1000)
    } finally {
      wire.stop()
      await http.close()
      await throttledSandbox.close()
    }
  })

  it('a 500 on a read is repeated and the caller sees only the success', async () => {
    const wire = recordWire()
    try {
      const { workflow } = harness.connect()
      harness.sandbox.setFaults({ fail_rate: 0.5 })
      // Every second request fails: each read below meets one 500 or succeeds at once.
      const pages: Entity[][] = []
      for await (const page of workflow.list('publishers', { query: { page_size: '10' } })) pages.push(page)
      expect(pages.flat()).toHaveLength(40)
      expect(wire.count('GET', '/publishers/')).toBeGreaterThan(pages.length)
    } finally {
      wire.stop()
    }
  })

  it('gives up after the configured number of retries', async () => {
    const wire = recordWire()
    try {
      const { workflow } = harness.connect()
      harness.sandbox.setFaults({ fail_rate: 1 })
      const error = await caught(workflow.get('publishers', 3))
      expect(error.code).toBe('server')
      expect(wire.count('GET', '/publishers/3/')).toBe(1 + 3)
    } finally {
      wire.stop()
    }
  })

  it('503, 502 (an HTML page) and 504 are retried; a dropped connection too', async () => {
    let calls = 0
    const tiny = await startTinyServer((_request, response) => {
      calls += 1
      if (calls === 1) {
        response.writeHead(503, { 'content-type': 'text/plain' })
        response.end('Service Unavailable')
      } else if (calls === 2) {
        response.writeHead(502, { 'content-type': 'text/html' })
        response.end('<html><body><h1>502 Bad Gateway</h1></body></html>')
      } else if (calls === 3) {
        response.socket?.destroy()
      } else if (calls === 4) {
        response.writeHead(504)
        response.end()
      } else {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ id: 7, name: 'Seven' }))
      }
    })
    const http = fastHttp({ retry: { maxRetries: 5 } })
    try {
      const connection = harness.connect()
      const workflow = createWorkflowClient({ http, tokens: connection.tokens.workflow, settings: { baseUrl: tiny.url } })
      expect(await workflow.get('publishers', 7)).toEqual({ id: 7, name: 'Seven' })
      expect(calls).toBe(5)
    } finally {
      await http.close()
      await tiny.close()
    }
  })
})

describe('writes are never retried blindly', () => {
  it("an entity POST that gets a 500 is sent once, and nothing was created behind the caller's back", async () => {
    const received = recordServerRequests(harness.sandbox.port)
    try {
      const { workflow } = harness.connect()
      harness.sandbox.setFaults({ fail_rate: 0.5 })
      await workflow.get('publishers', 1) // passes: the next request is the one that fails
      const error = await caught(workflow.create('publishers', { name: 'Once', url: 'https://once.example', external_id: 'ONCE-1' }))
      expect(error.code).toBe('server')
      expect(received.count('POST', '/publishers/')).toBe(1)
      harness.sandbox.setFaults({ fail_rate: 0 })
      const all: Entity[] = []
      for await (const page of workflow.list('publishers', { query: { page_size: '1000' } })) all.push(...page)
      expect(all.filter((entity) => entity.external_id === 'ONCE-1')).toHaveLength(0)
    } finally {
      received.stop()
    }
  })

  it('PUT and DELETE meeting a 503 are sent once', async () => {
    const tiny = await startTinyServer((_request, response) => {
      response.writeHead(503, { 'retry-after': '0' })
      response.end()
    })
    try {
      const connection = harness.connect()
      const workflow = createWorkflowClient({ http: harness.http, tokens: connection.tokens.workflow, settings: { baseUrl: tiny.url } })
      expect((await caught(workflow.update('publishers', 1, { id: 1, name: 'x' }))).code).toBe('server')
      expect((await caught(workflow.delete('publishers', 1))).code).toBe('server')
      expect(tiny.requests.filter((request) => request.method === 'PUT')).toHaveLength(1)
      expect(tiny.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1)
    } finally {
      await tiny.close()
    }
  })

  it('a create whose answer never came says the outcome is unknown', async () => {
    const tiny = await startTinyServer((_request, response) => {
      response.socket?.destroy()
    })
    try {
      const connection = harness.connect()
      const workflow = createWorkflowClient({ http: harness.http, tokens: connection.tokens.workflow, settings: { baseUrl: tiny.url } })
      const error = await caught(workflow.create('publishers', { name: 'Maybe', url: 'https://maybe.example' }))
      expect(error.code).toBe('network')
      expect(error.details?.outcome).toBe('unknown')
      expect(error.message).toMatch(/may or may not have been applied/)
      expect(tiny.requests.filter((request) => request.method === 'POST')).toHaveLength(1)
    } finally {
      await tiny.close()
    }
  })
})

describe('cancellation', () => {
  it('an AbortSignal stops a request the server is slow to answer', async () => {
    const { workflow, tokens } = harness.connect()
    await tokens.workflow.get()
    // Longer than the test's time limit: only a working cancel lets this test finish.
    harness.sandbox.setFaults({ latency_ms: 120_000 })
    const controller = new AbortController()
    const pending = workflow.get('publishers', 1, { signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    const error = await caught(pending)
    expect(error.code).toBe('cancelled')
  })

  it('an AbortSignal stops the wait between retries', async () => {
    const tiny = await startTinyServer((_request, response) => {
      response.writeHead(503, { 'retry-after': '3600' })
      response.end()
    })
    // Abort once the first 503 has arrived and the client sits in its hour-long wait.
    let waiting: () => void = () => undefined
    const inBackoff = new Promise<void>((resolve) => (waiting = resolve))
    const http = fastHttp({ retry: { maxRetryAfterMs: 10_000_000 }, onRetry: () => setImmediate(waiting) })
    try {
      const connection = harness.connect()
      const workflow = createWorkflowClient({ http, tokens: connection.tokens.workflow, settings: { baseUrl: tiny.url } })
      await connection.tokens.workflow.get()
      const controller = new AbortController()
      const pending = workflow.get('publishers', 1, { signal: controller.signal })
      await inBackoff
      const timersBefore = pendingTimers()
      controller.abort()
      const error = await caught(pending)
      expect(error.code).toBe('cancelled')
      expect(pendingTimers()).toBeLessThan(timersBefore)
      expect(tiny.requests.filter((request) => request.url.includes('/publishers/'))).toHaveLength(1)
    } finally {
      await http.close()
      await tiny.close()
    }
  })

  it('an AbortSignal stops the backoff after a dropped connection', async () => {
    const tiny = await startTinyServer((_request, response) => {
      response.socket?.destroy()
    })
    // A backoff of an hour: only a working cancel lets this test finish.
    let waiting: () => void = () => undefined
    const inBackoff = new Promise<void>((resolve) => (waiting = resolve))
    const http = fastHttp({ retry: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 }, onRetry: () => setImmediate(waiting) })
    try {
      const connection = harness.connect()
      const workflow = createWorkflowClient({ http, tokens: connection.tokens.workflow, settings: { baseUrl: tiny.url } })
      await connection.tokens.workflow.get()
      const controller = new AbortController()
      const pending = workflow.get('publishers', 1, { signal: controller.signal })
      await inBackoff
      const timersBefore = pendingTimers()
      controller.abort()
      const error = await caught(pending)
      expect(error.code).toBe('cancelled')
      expect(pendingTimers()).toBeLessThan(timersBefore)
      expect(tiny.requests).toHaveLength(1)
    } finally {
      await http.close()
      await tiny.close()
    }
  })

  it('aborting between pages ends the listing with cancelled', async () => {
    const { workflow } = harness.connect()
    const controller = new AbortController()
    const wire = recordWire()
    try {
      const error = await caught(
        (async () => {
          for await (const page of workflow.list('publishers', { query: { page_size: '5' }, signal: controller.signal, onProgress: () => controller.abort() }))
            void page
        })(),
      )
      expect(error.code).toBe('cancelled')
      expect(wire.count('GET', '/publishers/')).toBe(1)
    } finally {
      wire.stop()
    }
  })

  it('an already aborted signal sends nothing', async () => {
    const { workflow, tokens } = harness.connect()
    await tokens.workflow.get()
    const wire = recordWire()
    try {
      const error = await caught(firstPage(workflow.list('publishers', { signal: AbortSignal.abort() })))
      expect(error.code).toBe('cancelled')
      expect(wire.requests).toHaveLength(0)
    } finally {
      wire.stop()
    }
  })
})
