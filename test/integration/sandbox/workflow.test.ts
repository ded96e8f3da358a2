import { request } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { startAt, tokenFor, workflow } from './helpers'

interface Envelope {
  count: number
  next: string | null
  previous: string | null
  results: Array<Record<string, unknown>>
}

let sandbox: Sandbox
let token: string
let viewer: string

beforeAll(async () => {
  sandbox = await startAt()
  token = await tokenFor(sandbox)
  viewer = await tokenFor(sandbox, 'viewer')
})
afterAll(() => sandbox.close())
beforeEach(() => sandbox.reset())

const brand = {
  name: 'Sandbox Test Brand',
  is_open_auction_allowed: true,
  is_pmp_allowed: false,
  external_id: 'T-1',
  advertiser_domains: ['test-brand.example'],
}

describe('listing (200) and paging', () => {
  it('lists every kind with the envelope and the seeded counts', async () => {
    const expected: Record<string, number> = { publishers: 40, ad_units: 400, brands: 150, agencies: 30, bidders: 25 }
    for (const [kind, count] of Object.entries(expected)) {
      const result = await workflow(sandbox, 'GET', `/${kind}/`, { token })
      expect(result.status).toBe(200)
      expect(result.headers['content-type']).toContain('application/json')
      const body = result.json as Envelope
      expect(body.count).toBe(count)
      expect(body.results.length).toBe(Math.min(count, 100))
    }
  })

  it('returns entities with their documented fields and realistic values', async () => {
    const publisher = ((await workflow(sandbox, 'GET', '/publishers/1/', { token })).json ?? {}) as Record<string, unknown>
    expect(Object.keys(publisher).sort()).toEqual(['external_id', 'id', 'name', 'url'])
    expect(publisher['url']).toMatch(/^https:\/\/[a-z0-9-]+\.example$/)
    const brandBody = (await workflow(sandbox, 'GET', '/brands/1/', { token })).json as Record<string, unknown>
    expect(Object.keys(brandBody).sort()).toEqual(['advertiser_domains', 'external_id', 'id', 'is_open_auction_allowed', 'is_pmp_allowed', 'name'])
    const unit = (await workflow(sandbox, 'GET', '/ad_units/1/', { token })).json as Record<string, unknown>
    expect(Object.keys(unit).sort()).toEqual(['external_id', 'id', 'name', 'publisher', 'size'])
    expect(unit['size']).toMatch(/^\d+x\d+$/)
    const agency = (await workflow(sandbox, 'GET', '/agencies/1/', { token })).json as Record<string, unknown>
    expect(Object.keys(agency).sort()).toEqual(['brands', 'external_id', 'id', 'name'])
    const bidder = (await workflow(sandbox, 'GET', '/bidders/1/', { token })).json as Record<string, unknown>
    expect(Object.keys(bidder).sort()).toEqual(['endpoint_url', 'external_id', 'id', 'is_active', 'name'])
  })

  it('pages with absolute next/previous links that keep page_size', async () => {
    const first = (await workflow(sandbox, 'GET', '/ad_units/?page_size=150', { token })).json as Envelope
    expect(first.previous).toBeNull()
    expect(first.next).toBe(`${sandbox.info.base_url}/ad_units/?page_size=150&page=2`)
    const second = (await workflow(sandbox, 'GET', '/ad_units/?page_size=150&page=2', { token })).json as Envelope
    expect(second.results[0]?.['id']).toBe(151)
    expect(second.previous).toBe(`${sandbox.info.base_url}/ad_units/?page_size=150`)
    const last = (await workflow(sandbox, 'GET', '/ad_units/?page_size=150&page=3', { token })).json as Envelope
    expect(last.next).toBeNull()
    expect(last.results.length).toBe(100)
    const everything = (await workflow(sandbox, 'GET', '/ad_units/?page_size=1000', { token })).json as Envelope
    expect(everything.results.length).toBe(400)
  })

  it("builds next/previous links on the sandbox's own origin, whatever Host the request names", async () => {
    for (const host of ['evil.example', 'evil.example:8080', `localhost:${sandbox.port}`]) {
      const response = await request(`${sandbox.info.base_url}/ad_units/?page_size=150&page=2`, { headers: { authorization: `Bearer ${token}`, host } })
      const page = (await response.body.json()) as Envelope
      expect(response.statusCode, host).toBe(200)
      expect(page.next, host).toBe(`${sandbox.info.base_url}/ad_units/?page_size=150&page=3`)
      expect(page.previous, host).toBe(`${sandbox.info.base_url}/ad_units/?page_size=150`)
      expect(sandbox.info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/workflow\/v1$/)
    }
  })

  it('answers 400 for page_size out of range and any other query parameter, 404 past the end', async () => {
    for (const query of ['page_size=1001', 'page_size=0', 'page_size=abc']) {
      const result = await workflow(sandbox, 'GET', `/brands/?${query}`, { token })
      expect(result.status, query).toBe(400)
      expect((result.json as { detail: string }).detail).toContain('page_size')
    }
    const other = await workflow(sandbox, 'GET', '/brands/?name=Acme', { token })
    expect(other.status).toBe(400)
    expect((other.json as { detail: string }).detail).toContain('name')
    const past = await workflow(sandbox, 'GET', '/brands/?page=99', { token })
    expect(past.status).toBe(404)
    expect(past.json).toEqual({ detail: 'Invalid page.' })
  })
})

describe('create (201), update (204), delete (204)', () => {
  it('creates a brand and returns it with its id', async () => {
    const created = await workflow(sandbox, 'POST', '/brands/', { token, body: brand })
    expect(created.status).toBe(201)
    const body = created.json as Record<string, unknown>
    expect(body).toMatchObject(brand)
    expect(body['id']).toBe(151)
    const fetched = await workflow(sandbox, 'GET', '/brands/151/', { token })
    expect(fetched.json).toEqual(body)
    expect(((await workflow(sandbox, 'GET', '/brands/', { token })).json as Envelope).count).toBe(151)
  })

  it('fills optional fields with defaults', async () => {
    const created = (await workflow(sandbox, 'POST', '/bidders/', { token, body: { name: 'Minimal Bidder' } })).json as Record<string, unknown>
    expect(created).toEqual({ id: 26, name: 'Minimal Bidder', external_id: '', endpoint_url: '', is_active: true })
  })

  it('replaces an entity with PUT (204, no body) and keeps the change', async () => {
    const current = (await workflow(sandbox, 'GET', '/publishers/3/', { token })).json as Record<string, unknown>
    const result = await workflow(sandbox, 'PUT', '/publishers/3/', { token, body: { ...current, name: 'Renamed Media' } })
    expect(result.status).toBe(204)
    expect(result.text).toBe('')
    expect(((await workflow(sandbox, 'GET', '/publishers/3/', { token })).json as Record<string, unknown>)['name']).toBe('Renamed Media')
  })

  it('deletes an entity (204), after which it is 404', async () => {
    const created = (await workflow(sandbox, 'POST', '/publishers/', { token, body: { name: 'Short Lived', url: 'https://short.example' } })).json as {
      id: number
    }
    expect((await workflow(sandbox, 'DELETE', `/publishers/${created.id}/`, { token })).status).toBe(204)
    expect((await workflow(sandbox, 'GET', `/publishers/${created.id}/`, { token })).status).toBe(404)
  })
})

describe('validation (400 with a field map)', () => {
  it('requires the required fields on POST and on PUT (the whole object)', async () => {
    const missing = await workflow(sandbox, 'POST', '/brands/', { token, body: { name: 'No flags' } })
    expect(missing.status).toBe(400)
    expect(missing.json).toEqual({ is_open_auction_allowed: ['This field is required.'], is_pmp_allowed: ['This field is required.'] })
    const partialPut = await workflow(sandbox, 'PUT', '/brands/1/', { token, body: { name: 'Only a name' } })
    expect(partialPut.status).toBe(400)
    expect(Object.keys(partialPut.json as object).sort()).toEqual(['is_open_auction_allowed', 'is_pmp_allowed'])
    for (const [kind, field] of [
      ['publishers', 'url'],
      ['ad_units', 'publisher'],
      ['agencies', 'name'],
      ['bidders', 'name'],
    ] as const) {
      const result = await workflow(sandbox, 'POST', `/${kind}/`, { token, body: {} })
      expect(result.status, kind).toBe(400)
      expect((result.json as Record<string, string[]>)[field], kind).toEqual(['This field is required.'])
    }
  })

  it('rejects wrong types, bad URLs and bad domains', async () => {
    const types = await workflow(sandbox, 'POST', '/brands/', { token, body: { ...brand, is_pmp_allowed: 'yes', name: 42 } })
    expect(types.status).toBe(400)
    expect(Object.keys(types.json as object).sort()).toEqual(['is_pmp_allowed', 'name'])
    const url = await workflow(sandbox, 'POST', '/publishers/', { token, body: { name: 'Bad', url: 'not a url' } })
    expect(url.json).toEqual({ url: ['Enter a valid URL.'] })
    const domains = await workflow(sandbox, 'POST', '/brands/', { token, body: { ...brand, advertiser_domains: ['ok.example', 'not a domain'] } })
    expect(domains.json).toEqual({ advertiser_domains: ['Item 2: Enter a valid domain name.'] })
    const size = await workflow(sandbox, 'POST', '/ad_units/', { token, body: { name: 'x', publisher: 1, size: 'huge' } })
    expect(Object.keys(size.json as object)).toEqual(['size'])
    const notObject = await workflow(sandbox, 'POST', '/brands/', { token, body: [brand] })
    expect(notObject.status).toBe(400)
    const badJson = await workflow(sandbox, 'POST', '/brands/', { token, rawBody: '{"name":' })
    expect(badJson.status).toBe(400)
    expect((badJson.json as { detail: string }).detail).toContain('JSON parse error')
  })

  it('rejects references to entities that do not exist', async () => {
    const unit = await workflow(sandbox, 'POST', '/ad_units/', { token, body: { name: 'Orphan', publisher: 9999 } })
    expect(unit.status).toBe(400)
    expect(unit.json).toEqual({ publisher: ['Invalid pk "9999" - object does not exist.'] })
    const agency = await workflow(sandbox, 'POST', '/agencies/', { token, body: { name: 'Agency', brands: [1, 777] } })
    expect(agency.json).toEqual({ brands: ['Invalid pk "777" - object does not exist.'] })
  })
})

describe('errors', () => {
  it('401 without a token, with a wrong one; 200 with the permanent token', async () => {
    const none = await workflow(sandbox, 'GET', '/brands/')
    expect(none.status).toBe(401)
    expect(none.json).toEqual({ detail: 'Authentication credentials were not provided.' })
    expect((await workflow(sandbox, 'GET', '/brands/', { token: 'nope' })).status).toBe(401)
    expect((await workflow(sandbox, 'GET', '/brands/', { token: sandbox.info.permanent_token })).status).toBe(200)
  })

  it("403 for the viewer's writes, while reads work", async () => {
    expect((await workflow(sandbox, 'GET', '/brands/', { token: viewer })).status).toBe(200)
    const post = await workflow(sandbox, 'POST', '/brands/', { token: viewer, body: brand })
    expect(post.status).toBe(403)
    expect((post.json as { detail: string }).detail).toContain('permission')
    expect((await workflow(sandbox, 'PUT', '/brands/1/', { token: viewer, body: brand })).status).toBe(403)
    expect((await workflow(sandbox, 'DELETE', '/brands/1/', { token: viewer })).status).toBe(403)
  })

  it('404 for an unknown id, kind or path', async () => {
    for (const path of ['/brands/99999/', '/campaigns/', '/brands/abc/', '/brands/1/extra/']) {
      const result = await workflow(sandbox, 'GET', path, { token })
      expect(result.status, path).toBe(404)
      expect(result.json).toEqual({ detail: 'Not found.' })
    }
  })

  it('405 with an Allow header for unsupported methods', async () => {
    const cases: Array<[Parameters<typeof workflow>[1], string, string]> = [
      ['PATCH', '/brands/1/', 'GET, PUT, DELETE'],
      ['PATCH', '/brands/', 'GET, POST'],
      ['DELETE', '/brands/', 'GET, POST'],
      ['PUT', '/brands/', 'GET, POST'],
      ['POST', '/brands/1/', 'GET, PUT, DELETE'],
    ]
    for (const [method, path, allow] of cases) {
      const result = await workflow(sandbox, method, path, { token, body: {} })
      expect(result.status, `${method} ${path}`).toBe(405)
      expect(result.headers['allow']).toBe(allow)
      expect((result.json as { detail: string }).detail).toContain(method)
    }
  })

  it('406 deleting a publisher with ad units or a brand an agency uses, naming the count', async () => {
    const units = (await workflow(sandbox, 'GET', '/ad_units/?page_size=1000', { token })).json as Envelope
    const ofPublisher1 = units.results.filter((unit) => unit['publisher'] === 1).length
    const publisher = await workflow(sandbox, 'DELETE', '/publishers/1/', { token })
    expect(publisher.status).toBe(406)
    expect((publisher.json as { detail: string }).detail).toContain(`${ofPublisher1} ad unit`)
    const agencies = (await workflow(sandbox, 'GET', '/agencies/', { token })).json as Envelope
    const used = (agencies.results[0]?.['brands'] as number[])[0] as number
    const users = agencies.results.filter((agency) => (agency['brands'] as number[]).includes(used)).length
    const brandDelete = await workflow(sandbox, 'DELETE', `/brands/${used}/`, { token })
    expect(brandDelete.status).toBe(406)
    expect((brandDelete.json as { detail: string }).detail).toContain(`${users} agenc`)
    // Once the dependents are gone the delete works.
    for (const unit of units.results.filter((item) => item['publisher'] === 1)) {
      expect((await workflow(sandbox, 'DELETE', `/ad_units/${String(unit['id'])}/`, { token })).status).toBe(204)
    }
    expect((await workflow(sandbox, 'DELETE', '/publishers/1/', { token })).status).toBe(204)
  })

  it('409 for a duplicate external_id within a kind; empty ones never clash', async () => {
    const duplicate = await workflow(sandbox, 'POST', '/publishers/', { token, body: { name: 'Copy', url: 'https://copy.example', external_id: 'PUB-000002' } })
    expect(duplicate.status).toBe(409)
    expect((duplicate.json as { detail: string }).detail).toContain('PUB-000002')
    // Another kind may use the same external id.
    expect((await workflow(sandbox, 'POST', '/bidders/', { token, body: { name: 'B', external_id: 'PUB-000002' } })).status).toBe(201)
    const current = (await workflow(sandbox, 'GET', '/publishers/3/', { token })).json as Record<string, unknown>
    expect((await workflow(sandbox, 'PUT', '/publishers/3/', { token, body: { ...current, external_id: 'PUB-000004' } })).status).toBe(409)
    // Keeping its own external id is not a conflict.
    expect((await workflow(sandbox, 'PUT', '/publishers/3/', { token, body: current })).status).toBe(204)
    for (let copy = 0; copy < 2; copy++) {
      expect((await workflow(sandbox, 'POST', '/agencies/', { token, body: { name: `No external id ${copy}` } })).status).toBe(201)
      expect((await workflow(sandbox, 'POST', '/agencies/', { token, body: { name: `Empty external id ${copy}`, external_id: '' } })).status).toBe(201)
    }
    // A freed external id can be reused.
    const created = (await workflow(sandbox, 'POST', '/bidders/', { token, body: { name: 'C', external_id: 'FREE-1' } })).json as { id: number }
    expect((await workflow(sandbox, 'DELETE', `/bidders/${created.id}/`, { token })).status).toBe(204)
    expect((await workflow(sandbox, 'POST', '/bidders/', { token, body: { name: 'D', external_id: 'FREE-1' } })).status).toBe(201)
  })

  it('429 with Retry-After past the per-token throttle', async () => {
    sandbox.setFaults({ throttle_per_s: 2 })
    const statuses: number[] = []
    let retryAfter: unknown
    for (let attempt = 0; attempt < 6; attempt++) {
      const result = await workflow(sandbox, 'GET', '/bidders/', { token })
      statuses.push(result.status)
      if (result.status === 429) retryAfter = result.headers['retry-after']
    }
    // The clock is fixed, so the one-second window never moves: two pass, then every request is throttled.
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429])
    expect(String(retryAfter)).toMatch(/^[1-9]\d*$/)
    // The budget is per token: another token still passes.
    expect((await workflow(sandbox, 'GET', '/bidders/', { token: viewer })).status).toBe(200)
  })

  it('504 for a body over 1 MiB', async () => {
    const result = await workflow(sandbox, 'POST', '/brands/', { token, body: { ...brand, name: 'x'.repeat(1024 * 1024 + 10) } })
    expect(result.status).toBe(504)
    expect((result.json as { detail: string }).detail).toContain('1 MiB')
  })

  it('500 from fault injection', async () => {
    sandbox.setFaults({ fail_rate: 1 })
    const result = await workflow(sandbox, 'GET', '/brands/', { token })
    expect(result.status).toBe(500)
    expect(result.headers['content-type']).toContain('application/json')
    expect((result.json as { detail: string }).detail).toContain('injected')
  })
})
