import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { HttpClient } from '../../../main/services/http/client'
import { createConnection, type Connection } from '../../../main/services/connection/connection'
import type { Entity } from '../../../main/services/workflow/entities'
import { demoCredentials, fastHttp } from './support/sandbox'
import { startTinyServer, type TinyHandler } from './support/tiny-server'
import { caught, collect } from './support/outcomes'

/**
 * Answers the sandbox never gives, from a tiny node:http server whose behaviour each test sets:
 * HTML pages, truncated JSON, YAML on the workflow side, wrong shapes, odd error bodies, odd links.
 */
let answer: TinyHandler = (_request, response) => response.end()
let tiny: Awaited<ReturnType<typeof startTinyServer>>
let http: HttpClient
let connection: Connection

beforeAll(async () => {
  tiny = await startTinyServer((request, response, body) => answer(request, response, body))
  http = fastHttp({ retry: { maxRetries: 1 } })
  connection = createConnection({
    settings: { baseUrl: `${tiny.url}/wf`, authUrl: `${tiny.url}/auth`, reportUrl: `${tiny.url}/rep`, serviceId: 'demo', reportServiceId: null },
    credentials: async () => demoCredentials,
    http,
  })
})
afterAll(async () => {
  await http.close()
  await tiny.close()
})
beforeEach(() => {
  tiny.requests.length = 0
})

function send(status: number, contentType: string | null, body: string): TinyHandler {
  return (_request, response: ServerResponse) => {
    response.writeHead(status, contentType === null ? {} : { 'content-type': contentType })
    response.end(body)
  }
}

describe('answers that are not the JSON we asked for', () => {
  it('YAML on the workflow side', async () => {
    answer = send(200, 'application/x-yaml', 'count: 1\nnext: null\nresults:\n- id: 1\n')
    const error = await caught(collect(connection.workflow.list('publishers')))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/YAML instead of JSON/)
  })

  it('YAML without a content type', async () => {
    answer = send(200, null, 'id: 1\nname: One\n')
    const error = await caught(connection.workflow.get('publishers', 1))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/YAML/)
  })

  it('an HTML page with 200 (a captive portal, a login page)', async () => {
    answer = send(200, 'text/html', '<!doctype html><html><body>Please log in to the Wi-Fi</body></html>')
    const error = await caught(connection.workflow.get('publishers', 1))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/web page \(HTML\)/)
  })

  it('an HTML 502 page from a proxy, after the retries: a server error whose sentence has no HTML in it', async () => {
    answer = send(502, 'text/html', '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>')
    const error = await caught(connection.workflow.get('publishers', 1))
    expect(error.code).toBe('server')
    expect(error.details?.httpStatus).toBe(502)
    expect(error.message).not.toMatch(/</)
    expect(tiny.requests.filter((request) => request.url.startsWith('/wf/'))).toHaveLength(2)
  })

  it('truncated JSON', async () => {
    answer = send(200, 'application/json', '{"count": 3, "next": null, "previous": null, "results": [{"id": 1, "na')
    const error = await caught(collect(connection.workflow.list('publishers')))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/invalid or truncated JSON/)
  })

  it('a body cut short of its Content-Length is a broken connection', async () => {
    answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' })
      response.write('{"id": 1, "name": "O')
      setTimeout(() => response.socket?.destroy(), 10)
    }
    const error = await caught(connection.workflow.get('publishers', 1))
    expect(error.code).toBe('network')
  })

  it('an empty 200', async () => {
    answer = send(200, 'application/json', '')
    const error = await caught(connection.workflow.get('publishers', 1))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/empty/)
  })

  it('JSON of the wrong shape: a list without results, an entity without an id, an array', async () => {
    answer = send(200, 'application/json', JSON.stringify({ items: [] }))
    const list = await caught(collect(connection.workflow.list('publishers')))
    expect(list.code).toBe('bad_response')
    expect(list.message).toMatch(/did not have the expected shape/)
    expect(String(list.details?.issues)).toMatch(/results/)

    answer = send(200, 'application/json', JSON.stringify({ name: 'no id' }))
    expect((await caught(connection.workflow.get('publishers', 1))).code).toBe('bad_response')

    answer = send(200, 'application/json', JSON.stringify([1, 2]))
    expect((await caught(connection.workflow.get('publishers', 1))).code).toBe('bad_response')
  })

  it('a create whose 201 cannot be read says the entity was probably created', async () => {
    answer = send(201, 'text/html', '<html>Created</html>')
    const error = await caught(connection.workflow.create('publishers', { name: 'x', url: 'https://x.example' }))
    expect(error.code).toBe('bad_response')
    expect(error.details?.outcome).toBe('probably_created')
    expect(error.message).toMatch(/probably created/)
  })

  it('reporting: wrong shape and missing status', async () => {
    answer = send(200, 'application/json', JSON.stringify({ status: 'success', rows: 'none' }))
    const shape = await caught(connection.reporting.timeSeries({ project_name: 'p', slicer_name: 's' }))
    expect(shape.code).toBe('bad_response')

    answer = send(200, 'application/json', JSON.stringify({ key_fields: [], data_fields: [] }))
    expect((await caught(connection.reporting.info({ project_name: 'p', slicer_name: 's' }))).code).toBe('bad_response')

    answer = send(200, 'application/json', JSON.stringify({ status: 'exploded', reason: 'Something new' }))
    const unknown = await caught(connection.reporting.info({ project_name: 'p', slicer_name: 's' }))
    expect(unknown.code).toBe('server')
    expect(unknown.details?.apiStatus).toBe('exploded')
  })

  it('reporting: a status in the body wins over a 200, and a 500 with a body status says why', async () => {
    answer = send(200, 'application/json', JSON.stringify({ status: 'bad_request', reason: 'split_by is required' }))
    const error = await caught(connection.reporting.audience({ project_name: 'p', slicer_name: 's' }))
    expect(error.code).toBe('validation')
    expect(error.details).toMatchObject({ httpStatus: 200, apiStatus: 'bad_request', reason: 'split_by is required' })

    answer = send(500, 'application/json', JSON.stringify({ status: 'timeout', reason: 'Took 300 s' }))
    const timeout = await caught(connection.reporting.info({ project_name: 'p', slicer_name: 's' }))
    expect(timeout.code).toBe('timeout')
    expect(timeout.message).toContain('Took 300 s')
  })
})

describe('error bodies of every shape', () => {
  it('plain text is the reason', async () => {
    answer = send(400, 'text/plain', 'name is too long')
    const error = await caught(connection.workflow.create('publishers', { name: 'x' }))
    expect(error.code).toBe('validation')
    expect(error.message).toContain('name is too long')
  })

  it('an empty error body still gives its case', async () => {
    answer = send(404, null, '')
    expect((await caught(connection.workflow.get('publishers', 1))).code).toBe('not_found')
    answer = send(409, null, '')
    expect((await caught(connection.workflow.create('publishers', { name: 'x' }))).code).toBe('conflict')
  })

  it('a field map with non_field_errors', async () => {
    answer = send(400, 'application/json', JSON.stringify({ non_field_errors: ['Name and URL must differ.'], url: ['Enter a valid URL.'] }))
    const error = await caught(connection.workflow.create('publishers', { name: 'x' }))
    expect(error.code).toBe('validation')
    expect(error.details?.fields).toEqual({ non_field_errors: ['Name and URL must differ.'], url: ['Enter a valid URL.'] })
    expect(error.message).toContain('Name and URL must differ')
  })

  it('a 429 with Retry-After as an HTTP date', async () => {
    const later = new Date(Date.now() + 120_000).toUTCString()
    answer = (_request, response) => {
      response.writeHead(429, { 'retry-after': later, 'content-type': 'application/json' })
      response.end(JSON.stringify({ detail: 'Slow down.' }))
    }
    const error = await caught(connection.workflow.get('publishers', 1))
    expect(error.code).toBe('throttled')
    const wait = error.details?.retryAfterSeconds as number
    expect(wait).toBeGreaterThan(100)
    expect(wait).toBeLessThanOrEqual(120)
  })
})

describe('next links', () => {
  const page = (results: Entity[], next: string | null) => JSON.stringify({ count: 4, next, previous: null, results })

  it('a relative next is resolved against the page it came from', async () => {
    answer = (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      if (request.url === '/wf/publishers/') response.end(page([{ id: 1 }, { id: 2 }], '?cursor=abc'))
      else if (request.url === '/wf/publishers/?cursor=abc') response.end(page([{ id: 3 }], '/wf/publishers/?cursor=def'))
      else response.end(page([{ id: 4 }], null))
    }
    const all = await collect(connection.workflow.list('publishers'))
    expect(all.map((entity) => entity.id)).toEqual([1, 2, 3, 4])
    expect(tiny.requests.filter((request) => request.url.startsWith('/wf/')).map((request) => request.url)).toEqual([
      '/wf/publishers/',
      '/wf/publishers/?cursor=abc',
      '/wf/publishers/?cursor=def',
    ])
  })

  it('a next on another server is refused (the token would go with it)', async () => {
    answer = send(200, 'application/json', page([{ id: 1 }], 'http://evil.example/steal/'))
    const error = await caught(collect(connection.workflow.list('publishers')))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/another server/)
  })

  it('links that go round in a circle end with an error, not forever', async () => {
    answer = send(200, 'application/json', page([{ id: 1 }], '/wf/publishers/'))
    const error = await caught(collect(connection.workflow.list('publishers')))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/circle/)
  })
})
