import { request } from 'undici'
import type { Dispatcher } from 'undici'
import { startSandbox } from '../../../main/sandbox/index'
import type { Sandbox, SandboxOptions } from '../../../main/sandbox/index'

/** A fixed clock: data runs from 2023-05-12 to 2024-06-14; "today" is 2024-06-15. */
export const NOW = new Date('2024-06-15T10:30:00Z')
export const FIRST_DATE = '2023-05-12'
export const LAST_DATE = '2024-06-14'

export function startAt(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ now: () => NOW, ...options })
}

export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: unknown
}

async function reply(response: Dispatcher.ResponseData): Promise<Reply> {
  const text = await response.body.text()
  let json: unknown = undefined
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.statusCode, headers: response.headers, text, json }
}

export async function passwordGrant(sandbox: Sandbox, form: Record<string, string>): Promise<Reply> {
  const response = await request(`${sandbox.info.auth_url}/oauth2/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  })
  return reply(response)
}

export async function tokenFor(sandbox: Sandbox, user: 'demo' | 'viewer' = 'demo'): Promise<string> {
  const result = await passwordGrant(sandbox, { grant_type: 'password', username: user, password: user, scope: 'service_id=demo' })
  const body = result.json as { access_token?: string }
  if (result.status !== 200 || !body.access_token) throw new Error(`token request failed: ${result.status} ${result.text}`)
  return body.access_token
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS'

/** A Workflow API call; `path` is relative to base_url (e.g. `/brands/`). */
export async function workflow(
  sandbox: Sandbox,
  method: Method,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {}
  if (options.token) headers['authorization'] = `Bearer ${options.token}`
  let body: string | undefined
  if (options.rawBody !== undefined || options.body !== undefined) {
    headers['content-type'] = 'application/json;charset=UTF-8'
    body = options.rawBody ?? JSON.stringify(options.body)
  }
  return reply(await request(`${sandbox.info.base_url}${path}`, { method, headers, body }))
}

export const COMMON = { project_name: 'demo', slicer_name: 'supply' }

/** A Reporting API call with `Accept: application/json` unless `json: false`. */
export async function report(
  sandbox: Sandbox,
  operation: string,
  body: Record<string, unknown>,
  options: { json?: boolean; method?: Method; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers }
  if (options.json !== false) headers['accept'] = 'application/json'
  const method = options.method ?? 'POST'
  return reply(await request(`${sandbox.info.report_url}/API/v2/${operation}`, { method, headers, body: method === 'GET' ? undefined : JSON.stringify(body) }))
}

/** The body of a successful reporting call (fails the test with the reason otherwise). */
export async function success<T = Record<string, unknown>>(sandbox: Sandbox, operation: string, body: Record<string, unknown>): Promise<T> {
  const result = await report(sandbox, operation, { ...COMMON, token: sandbox.info.permanent_token, ...body })
  const parsed = result.json as { status?: string; reason?: string }
  if (result.status !== 200 || parsed.status !== 'success') throw new Error(`${operation} failed: ${result.status} ${result.text.slice(0, 300)}`)
  return result.json as T
}

/** The reason of a failed reporting call, after checking its status. */
export async function failure(sandbox: Sandbox, operation: string, body: Record<string, unknown>, status = 'bad_request'): Promise<string> {
  const result = await report(sandbox, operation, { ...COMMON, token: sandbox.info.permanent_token, ...body })
  const parsed = result.json as { status?: string; reason?: string }
  if (parsed.status !== status) throw new Error(`expected ${status}, got ${result.status} ${result.text.slice(0, 300)}`)
  return parsed.reason ?? ''
}

export interface TimeSeriesRow {
  __time__: string
  __mapping__: string | null
  __markers__?: Array<Record<string, unknown>>
  [line: string]: unknown
}
export interface TimeSeriesBody {
  status: string
  mappings: Record<string, Record<string, string | null>>
  rows: TimeSeriesRow[]
}

export function totalSeries(sandbox: Sandbox, body: Record<string, unknown>): Promise<TimeSeriesBody> {
  return success<TimeSeriesBody>(sandbox, 'time_series', { granularity: 'day', split_by: [], chart_lines: ['__total__'], data_field: 'impressions', ...body })
}

/** Export as text; returns the lines (without the final empty one) and the response. */
export async function exportText(
  sandbox: Sandbox,
  body: Record<string, unknown>,
  token = sandbox.info.permanent_token,
): Promise<{ reply: Reply; lines: string[] }> {
  const result = await report(sandbox, 'export', { ...COMMON, token, export_format: 'csv', ...body })
  if (result.status !== 200) throw new Error(`export failed: ${result.status} ${result.text.slice(0, 300)}`)
  const separator = body['export_format'] === 'tsv' ? '\n' : '\r\n'
  const lines = result.text.split(separator)
  if (lines[lines.length - 1] === '') lines.pop()
  return { reply: result, lines }
}

export function sum(values: readonly unknown[]): number {
  return values.reduce<number>((total, value) => total + Number(value), 0)
}
