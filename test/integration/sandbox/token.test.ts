import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { NOW, passwordGrant, startAt, tokenFor, workflow } from './helpers'

let sandbox: Sandbox
let clock = NOW.getTime()

beforeAll(async () => {
  sandbox = await startAt({ now: () => new Date(clock), tokenTtlSeconds: 120 })
})
afterAll(() => sandbox.close())

const grant = { grant_type: 'password', username: 'demo', password: 'demo', scope: 'service_id=demo' }

describe('token service', () => {
  it('issues a Bearer token for the password grant', async () => {
    const result = await passwordGrant(sandbox, grant)
    expect(result.status).toBe(200)
    const body = result.json as Record<string, unknown>
    expect(body['token_type']).toBe('Bearer')
    expect(body['scope']).toBe('service_id=demo')
    expect(body['expires_in']).toBe(120)
    expect(typeof body['access_token']).toBe('string')
    expect((await workflow(sandbox, 'GET', '/brands/', { token: String(body['access_token']) })).status).toBe(200)
  })

  it('answers OAuth2 errors: 401 for wrong credentials, 400 for bad grant or scope', async () => {
    const wrong = await passwordGrant(sandbox, { ...grant, password: 'guess' })
    expect(wrong.status).toBe(401)
    expect(wrong.json).toMatchObject({ error: 'invalid_grant' })
    expect((wrong.json as { error_description: string }).error_description.length).toBeGreaterThan(0)
    expect((await passwordGrant(sandbox, { ...grant, username: 'nobody' })).status).toBe(401)
    const scope = await passwordGrant(sandbox, { ...grant, scope: 'service_id=other' })
    expect(scope.status).toBe(400)
    expect(scope.json).toMatchObject({ error: 'invalid_scope' })
    const grantType = await passwordGrant(sandbox, { ...grant, grant_type: 'client_credentials' })
    expect(grantType.status).toBe(400)
    expect(grantType.json).toMatchObject({ error: 'unsupported_grant_type' })
    const missing = await passwordGrant(sandbox, { grant_type: 'password', username: 'demo', scope: 'service_id=demo' })
    expect(missing.status).toBe(400)
    expect(missing.json).toMatchObject({ error: 'invalid_request' })
    const json = await request(`${sandbox.info.auth_url}/oauth2/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(grant),
    })
    expect(json.statusCode).toBe(400)
    await json.body.dump()
  })

  it('answers 405 to GET', async () => {
    const result = await request(`${sandbox.info.auth_url}/oauth2/token/`)
    expect(result.statusCode).toBe(405)
    expect(result.headers['allow']).toBe('POST')
    await result.body.dump()
  })

  it('expires tokens after their lifetime (the clock is injected); token_ttl_s changes new tokens', async () => {
    const token = await tokenFor(sandbox)
    clock += 119_000
    expect((await workflow(sandbox, 'GET', '/brands/', { token })).status).toBe(200)
    clock += 2_000
    const expired = await workflow(sandbox, 'GET', '/brands/', { token })
    expect(expired.status).toBe(401)
    expect((expired.json as { detail: string }).detail).toContain('expired')
    // The permanent token never expires.
    expect((await workflow(sandbox, 'GET', '/brands/', { token: sandbox.info.permanent_token })).status).toBe(200)
    sandbox.setFaults({ token_ttl_s: 5 })
    expect(((await passwordGrant(sandbox, grant)).json as { expires_in: number }).expires_in).toBe(5)
    sandbox.reset()
    expect(((await passwordGrant(sandbox, grant)).json as { expires_in: number }).expires_in).toBe(120)
  })

  it('issues viewer tokens that are read-only', async () => {
    const viewer = await tokenFor(sandbox, 'viewer')
    expect((await workflow(sandbox, 'GET', '/brands/', { token: viewer })).status).toBe(200)
    expect((await workflow(sandbox, 'DELETE', '/brands/150/', { token: viewer })).status).toBe(403)
  })
})
