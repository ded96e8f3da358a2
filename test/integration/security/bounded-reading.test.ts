import type { ServerResponse } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTokenProvider } from '../../../main/services/auth/token-provider'
import { createHttpClient, type HttpClient, type HttpClientOptions } from '../../../main/services/http/client'
import { createReportingClient } from '../../../main/services/reporting/client'
import { createWorkflowClient, type WorkflowClientOptions } from '../../../main/services/workflow/client'
import { caught, collect } from '../clients/support/outcomes'
import { startStubServer, type StubHandler, type StubServer } from './support'

/**
 * A server that never stops sending, sends one byte at a time, or never ends its list must not
 * hold the app: answers are read up to a byte limit, each call has an overall deadline besides
 * the idle timeouts, and a listing stops at a number of pages and rows. The limits are small
 * here; the app's own are named constants (64 MB, 5 minutes, 10,000 pages, 5,000,000 rows).
 */
const KB = 1024

/** The most a stub sends before it stops on its own, so a client without limits ends the test by failing it rather than by running out of memory or time. */
const STUB_SAFETY_BYTES = 64 * 1024 * KB
const STUB_SAFETY_MS = 5_000
const STUB_SAFETY_PAGES = 3_000

let handler: StubHandler = (_request, response) => response.end()
let server: StubServer
const clients: HttpClient[] = []

beforeAll(async () => {
  server = await startStubServer((request, response, body) => handler(request, response, body))
})
afterEach(async () => {
  server.requests.length = 0
  await Promise.all(clients.splice(0).map((client) => client.close()))
})
afterAll(async () => {
  await server.close()
})

function http(options: HttpClientOptions = {}): HttpClient {
  const client = createHttpClient({ retry: { maxRetries: 0 }, ...options })
  clients.push(client)
  return client
}

const tokens = createTokenProvider({
  http: createHttpClient(),
  authUrl: 'http://127.0.0.1:9',
  serviceId: 'x',
  credentials: async () => ({ method: 'token', token: 'permanent' }),
})

function workflow(client: HttpClient, limits?: WorkflowClientOptions['limits']) {
  return createWorkflowClient({ http: client, tokens, settings: { baseUrl: `${server.url}/wf` }, ...(limits === undefined ? {} : { limits }) })
}

/** Writes `chunk` again and again as fast as the client reads, until the client hangs up or the safety limit. */
function endless(response: ServerResponse, first: string, chunk: string): void {
  response.writeHead(200, { 'content-type': 'application/json' })
  response.write(first)
  let sent = 0
  let closed = false
  response.on('close', () => (closed = true))
  const pump = (): void => {
    while (!closed && sent < STUB_SAFETY_BYTES) {
      sent += chunk.length
      if (!response.write(chunk)) return void response.once('drain', pump)
    }
    if (!closed) response.end('"}')
  }
  pump()
}

/** One byte at a time, often enough that no idle timeout ever fires, until the client hangs up or the safety time. */
function drip(response: ServerResponse, contentType: string, everyMs = 20): void {
  response.writeHead(200, { 'content-type': contentType })
  const started = Date.now()
  const timer = setInterval(() => {
    if (Date.now() - started > STUB_SAFETY_MS) {
      clearInterval(timer)
      response.end()
      return
    }
    response.write(' ')
  }, everyMs)
  response.on('close', () => clearInterval(timer))
}

describe('a success answer is read up to a byte limit', () => {
  it('an endless body is a bad_response that says how much is too much, and the connection is dropped', async () => {
    let hungUp = false
    handler = (_request, response) => {
      response.on('close', () => (hungUp = !response.writableFinished))
      endless(response, '{"id": 1, "name": "', 'x'.repeat(16 * KB))
    }
    const error = await caught(workflow(http({ maxResponseBytes: 256 * KB })).get('publishers', 1))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/^The platform sent more than 256 KB/)
    await expect.poll(() => hungUp).toBe(true)
  })

  it('an answer that says up front it is too long is refused before it is read', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * KB) })
      response.end()
    }
    const error = await caught(workflow(http({ maxResponseBytes: 256 * KB })).get('publishers', 1))
    expect(error).toMatchObject({ code: 'bad_response', message: expect.stringMatching(/more than 256 KB/) })
  })

  it('an answer within the limit is read whole', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ id: 1, name: 'y'.repeat(200 * KB) }))
    }
    const entity = await workflow(http({ maxResponseBytes: 256 * KB })).get('publishers', 1)
    expect(String(entity.name)).toHaveLength(200 * KB)
  })
})

describe('each call has an overall deadline besides the idle timeouts', () => {
  it('a body that drips one byte at a time ends in a timeout', async () => {
    handler = (_request, response) => drip(response, 'application/json')
    const error = await caught(workflow(http({ deadlineMs: 300 })).get('publishers', 1))
    expect(error.code).toBe('timeout')
    expect(error.message).toMatch(/did not finish answering within/)
  })

  it('a reporting query that drips is cut off too', async () => {
    handler = (_request, response) => drip(response, 'application/json')
    const reporting = createReportingClient({ http: http({ deadlineMs: 300 }), tokens, settings: { reportUrl: `${server.url}/rep` } })
    const error = await caught(reporting.info({ project_name: 'demo', slicer_name: 'supply' }))
    expect(error.code).toBe('timeout')
  })

  it('an export keeps its own streaming rules: a long, steady download is not cut off', async () => {
    const chunks = 30
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/tab-separated-values' })
      let sent = 0
      const timer = setInterval(() => {
        sent += 1
        response.write(`row ${sent}\n`)
        if (sent === chunks) {
          clearInterval(timer)
          response.end()
        }
      }, 20)
      response.on('close', () => clearInterval(timer))
    }
    const reporting = createReportingClient({ http: http({ deadlineMs: 100 }), tokens, settings: { reportUrl: `${server.url}/rep` } })
    const file = await reporting.export({
      project_name: 'demo',
      slicer_name: 'supply',
      start_date: '2024-01-01',
      end_date: '2024-01-02',
      data_fields: ['imps'],
      split_by: ['publisher'],
    } as never)
    let text = ''
    for await (const chunk of file.body) text += String(chunk)
    expect(text.trim().split('\n')).toHaveLength(chunks)
  })
})

describe('a listing stops at a number of pages and rows', () => {
  /** Pages that always link to one more. */
  function endlessPager(rowsPerPage: number): StubHandler {
    return (request, response) => {
      const page = Number(new URL(request.url ?? '/', server.url).searchParams.get('page') ?? '1')
      const results = Array.from({ length: rowsPerPage }, (_, index) => ({ id: page * rowsPerPage + index, name: `publisher ${page}-${index}` }))
      const next = page < STUB_SAFETY_PAGES ? `${server.url}/wf/publishers/?page=${page + 1}` : null
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ count: 1_000_000_000, next, previous: null, results }))
    }
  }

  it('a list that never ends stops at the page limit with a sentence', async () => {
    handler = endlessPager(1)
    const error = await caught(collect(workflow(http(), { maxPages: 20 }).list('publishers')))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/more than 20 pages/)
    expect(server.requests.filter((request) => request.url.startsWith('/wf/publishers/')).length).toBeLessThanOrEqual(20)
  })

  it('a list that never ends stops at the row limit with a sentence', async () => {
    handler = endlessPager(100)
    const error = await caught(collect(workflow(http(), { maxRows: 250 }).list('publishers')))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/more than 250 publishers/)
  })
})
