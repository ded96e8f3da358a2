import diagnosticsChannel from 'node:diagnostics_channel'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../main/sandbox'
import { createHttpClient, type HttpClient, type HttpClientOptions } from '../../../../main/services/http/client'
import { createConnection, type Connection } from '../../../../main/services/connection/connection'
import type { ConnectionSettings, Credentials } from '../../../../main/services/connection/settings'

/** Retries that take milliseconds, and a fixed "random" so backoff is the same on every run. */
export function fastHttp(overrides: HttpClientOptions = {}): HttpClient {
  return createHttpClient({
    random: () => 0.5,
    ...overrides,
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 40, ...overrides.retry },
  })
}

export function settingsOf(sandbox: Sandbox): ConnectionSettings {
  const { info } = sandbox
  return { baseUrl: info.base_url, authUrl: info.auth_url, reportUrl: info.report_url, serviceId: info.service_id, reportServiceId: null }
}

export const demoCredentials: Credentials = { method: 'password', username: 'demo', password: 'demo' }

export interface Harness {
  sandbox: Sandbox
  http: HttpClient
  settings: ConnectionSettings
  connect(options?: { credentials?: () => Promise<Credentials>; now?: () => number; settings?: Partial<ConnectionSettings> }): Connection
  close(): Promise<void>
}

/** A real sandbox over HTTP on 127.0.0.1 and a client pool with fast retries. */
export async function startHarness(options: SandboxOptions = {}, httpOptions: HttpClientOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, ...options })
  const http = fastHttp(httpOptions)
  const settings = settingsOf(sandbox)
  return {
    sandbox,
    http,
    settings,
    connect: (connectOptions = {}) =>
      createConnection({
        settings: { ...settings, ...connectOptions.settings },
        credentials: connectOptions.credentials ?? (async () => demoCredentials),
        http,
        ...(connectOptions.now === undefined ? {} : { now: connectOptions.now }),
      }),
    async close() {
      await http.close()
      await sandbox.close()
    },
  }
}

export interface WireRequest {
  method: string
  origin: string
  path: string
  /** The answer's HTTP status, once headers arrived; null when none came (network failure, cancel). */
  status: number | null
}

export interface WireRecorder {
  requests: WireRequest[]
  count(method: string, pathPart: string): number
  /** Answers with this status to requests whose path contains `pathPart`. */
  answered(status: number, pathPart?: string): number
  stop(): void
}

/**
 * Every request undici puts on the wire, retries included, seen through its diagnostics
 * channels: what the server was sent and what it answered, not what our code meant to do.
 */
export function recordWire(): WireRecorder {
  const requests: WireRequest[] = []
  const seen = new WeakMap<object, WireRequest>()
  const created = diagnosticsChannel.channel('undici:request:create')
  const headers = diagnosticsChannel.channel('undici:request:headers')
  const onCreate = (message: unknown): void => {
    const { request } = message as { request: { method: string; origin: unknown; path: string } }
    const entry: WireRequest = { method: request.method, origin: String(request.origin), path: request.path, status: null }
    seen.set(request, entry)
    requests.push(entry)
  }
  const onHeaders = (message: unknown): void => {
    const { request, response } = message as { request: object; response: { statusCode: number } }
    const entry = seen.get(request)
    if (entry !== undefined) entry.status = response.statusCode
  }
  created.subscribe(onCreate)
  headers.subscribe(onHeaders)
  return {
    requests,
    count: (method, pathPart) => requests.filter((request) => request.method === method && request.path.includes(pathPart)).length,
    answered: (status, pathPart = '') => requests.filter((request) => request.status === status && request.path.includes(pathPart)).length,
    stop() {
      created.unsubscribe(onCreate)
      headers.unsubscribe(onHeaders)
    },
  }
}

/** A clock tests move by hand, shared by the sandbox and the client so tokens expire on cue. */
export function manualClock(start = Date.now()): { now: () => number; date: () => Date; advance(ms: number): void } {
  let current = start
  return {
    now: () => current,
    date: () => new Date(current),
    advance(ms) {
      current += ms
    },
  }
}
