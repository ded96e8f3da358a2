import { Readable } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { createTokenProvider } from '../../../main/services/auth/token-provider'
import { authorized } from '../../../main/services/auth/authorized'
import { AppError } from '../../../main/services/errors'
import type { HttpClient, HttpRequest, HttpResponse, ResponseStream } from '../../../main/services/http/client'
import type { Credentials } from '../../../main/services/connection/settings'

/** A token service in memory: each call answers the next queued status/body. */
function fakeTokenService(answers: Array<{ status: number; body: unknown }>): { http: HttpClient; calls: HttpRequest[]; release(): void; hold(): void } {
  const calls: HttpRequest[] = []
  let gate: Promise<void> = Promise.resolve()
  let open: () => void = () => undefined
  const http: HttpClient = {
    async request(request) {
      calls.push(request)
      await gate
      const answer = answers.shift() ?? { status: 500, body: { detail: 'no more answers' } }
      const text = JSON.stringify(answer.body)
      const stream = Readable.from([Buffer.from(text)], { objectMode: false }) as Readable & { text(): Promise<string> }
      stream.text = async () => text
      const response: HttpResponse = {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
        body: stream as unknown as ResponseStream,
        context: { method: request.method, url: request.url },
      }
      return response
    },
    close: async () => undefined,
  }
  return {
    http,
    calls,
    hold() {
      gate = new Promise((resolve) => (open = resolve))
    },
    release: () => open(),
  }
}

const password: Credentials = { method: 'password', username: 'ann', password: 's3cret' }
const issued = (token: string, expiresIn = 3600) => ({
  status: 200,
  body: { access_token: token, expires_in: expiresIn, token_type: 'Bearer', scope: 'service_id=x' },
})

describe('token provider', () => {
  it('sends the password grant form-encoded with the service scope', async () => {
    const service = fakeTokenService([issued('t1')])
    const tokens = createTokenProvider({ http: service.http, authUrl: 'https://auth.example/', serviceId: 'svc', credentials: async () => password })
    expect((await tokens.get()).value).toBe('t1')
    const call = service.calls[0]
    expect(call?.url).toBe('https://auth.example/oauth2/token/')
    expect(call?.method).toBe('POST')
    expect(call?.headers?.['content-type']).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(call?.body))).toEqual({
      grant_type: 'password',
      username: 'ann',
      password: 's3cret',
      scope: 'service_id=svc',
    })
  })

  it('renews before expiry: a margin of a minute, or a tenth of a short lifetime', async () => {
    let now = 0
    const service = fakeTokenService([issued('t1', 3600), issued('t2', 10), issued('t3', 10)])
    const tokens = createTokenProvider({
      http: service.http,
      authUrl: 'https://auth.example',
      serviceId: 'svc',
      credentials: async () => password,
      now: () => now,
    })
    expect((await tokens.get()).value).toBe('t1')
    expect(tokens.current()?.expiresAt).toBe(3_600_000)
    now = 3_539_000
    expect((await tokens.get()).value).toBe('t1')
    now = 3_540_000
    expect((await tokens.get()).value).toBe('t2')
    now += 8_999
    expect((await tokens.get()).value).toBe('t2')
    now += 1
    expect((await tokens.get()).value).toBe('t3')
  })

  it('concurrent callers share one sign-in', async () => {
    const service = fakeTokenService([issued('t1')])
    service.hold()
    const tokens = createTokenProvider({ http: service.http, authUrl: 'https://auth.example', serviceId: 'svc', credentials: async () => password })
    const waiting = Promise.all([tokens.get(), tokens.get(), tokens.get()])
    // Released once the sign-in is on the wire (no fixed wait): the three callers are all waiting on it.
    await vi.waitFor(() => expect(service.calls).toHaveLength(1))
    service.release()
    expect((await waiting).map((token) => token.value)).toEqual(['t1', 't1', 't1'])
    expect(service.calls).toHaveLength(1)
  })

  it('one caller giving up does not fail the shared sign-in for the others', async () => {
    const service = fakeTokenService([issued('t1')])
    service.hold()
    const tokens = createTokenProvider({ http: service.http, authUrl: 'https://auth.example', serviceId: 'svc', credentials: async () => password })
    const controller = new AbortController()
    const impatient = tokens.get({ signal: controller.signal })
    const patient = tokens.get()
    controller.abort()
    await expect(impatient).rejects.toMatchObject({ code: 'cancelled' })
    service.release()
    expect((await patient).value).toBe('t1')
  })

  it('renew() after a rejection signs in again, unless someone else already did', async () => {
    const service = fakeTokenService([issued('t1'), issued('t2')])
    const tokens = createTokenProvider({ http: service.http, authUrl: 'https://auth.example', serviceId: 'svc', credentials: async () => password })
    await tokens.get()
    const [first, second] = await Promise.all([tokens.renew('t1'), tokens.renew('t1')])
    expect(first?.value).toBe('t2')
    expect(second?.value).toBe('t2')
    expect((await tokens.renew('t1'))?.value).toBe('t2')
    expect(service.calls).toHaveLength(2)
  })

  it('a refused sign-in is "Sign-in rejected" with the service\'s description', async () => {
    const service = fakeTokenService([{ status: 401, body: { error: 'invalid_grant', error_description: 'Invalid username or password.' } }])
    const tokens = createTokenProvider({ http: service.http, authUrl: 'https://auth.example', serviceId: 'svc', credentials: async () => password })
    const error = await tokens.get().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('auth')
    expect((error as AppError).message).toMatch(/^Sign-in rejected: Invalid username or password\./)
    expect(JSON.stringify((error as AppError).details)).not.toContain('s3cret')
  })

  it('a token answer without a token is bad_response', async () => {
    const service = fakeTokenService([{ status: 200, body: { token_type: 'Bearer' } }])
    const tokens = createTokenProvider({ http: service.http, authUrl: 'https://auth.example', serviceId: 'svc', credentials: async () => password })
    await expect(tokens.get()).rejects.toMatchObject({ code: 'bad_response' })
  })

  it('a permanent token is used as is and cannot be renewed into itself', async () => {
    const service = fakeTokenService([])
    const tokens = createTokenProvider({
      http: service.http,
      authUrl: 'https://auth.example',
      serviceId: 'svc',
      credentials: async () => ({ method: 'token', token: 'perm' }),
    })
    expect(await tokens.get()).toEqual({ value: 'perm', expiresAt: null })
    expect(await tokens.renew('perm')).toBeNull()
    expect(service.calls).toHaveLength(0)
  })
})

describe('authorized', () => {
  it('renews once on a refusal and repeats; a second refusal ends it', async () => {
    const service = fakeTokenService([issued('t1'), issued('t2'), issued('t3')])
    const tokens = createTokenProvider({ http: service.http, authUrl: 'https://auth.example', serviceId: 'svc', credentials: async () => password })
    const used: Array<[string, boolean]> = []
    const refusal = new AppError('auth', 'Sign-in rejected: no.')
    const error = await authorized(tokens, undefined, async (token, renewed) => {
      used.push([token, renewed])
      return { rejected: refusal }
    }).catch((caught: unknown) => caught)
    expect(error).toBe(refusal)
    expect(used).toEqual([
      ['t1', false],
      ['t2', true],
    ])
    expect(service.calls).toHaveLength(2)
  })
})
