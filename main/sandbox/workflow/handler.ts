import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TokenService } from '../auth'
import type { FaultState } from '../faults'
import { bearerToken, sendEmpty, sendJson } from '../http'
import type { ReadBody } from '../http'
import { isKind } from './store'
import type { AnyEntity, Kind, WorkflowStore } from './store'
import { validateEntity } from './validate'
import type { FieldErrors } from './validate'

export const DEFAULT_PAGE_SIZE = 100
export const MAX_PAGE_SIZE = 1000

export interface WorkflowDependencies {
  store: () => WorkflowStore
  tokens: TokenService
  faults: FaultState
  /**
   * `http://host:port` the sandbox listens on. Paging links are built from it, never from the
   * request's Host header, which any caller can set (a page could plant its own links).
   */
  origin: string
}

const SINGULAR: Record<Kind, string> = { publishers: 'publisher', brands: 'brand', ad_units: 'ad unit', agencies: 'agency', bidders: 'bidder' }

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body !== null && 'detail' in body ? String(body.detail) : `HTTP ${status}`)
  }
}

const detail = (status: number, text: string, headers: Record<string, string> = {}): HttpProblem => new HttpProblem(status, { detail: text }, headers)

/** Handles `{base_url}/<kind>/` and `{base_url}/<kind>/<id>/`; `path` is what follows `/workflow/v1`. */
export function handleWorkflow(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  query: URLSearchParams,
  body: ReadBody,
  dependencies: WorkflowDependencies,
): void {
  try {
    const result = route(request, path, query, body, dependencies)
    if (result.status === 204) sendEmpty(response, 204)
    else sendJson(response, result.status, result.body, result.headers)
  } catch (error) {
    if (error instanceof HttpProblem) sendJson(response, error.status, error.body, error.headers)
    else sendJson(response, 500, { detail: `Server error: ${error instanceof Error ? error.message : String(error)}` })
  }
}

interface Result {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

function route(request: IncomingMessage, path: string, query: URLSearchParams, body: ReadBody, dependencies: WorkflowDependencies): Result {
  const segments = path.split('/').filter((segment) => segment !== '')
  const kindName = segments[0]
  if (segments.length < 1 || segments.length > 2 || kindName === undefined || !isKind(kindName)) throw detail(404, 'Not found.')
  const kind: Kind = kindName
  const idText = segments[1]
  if (idText !== undefined && !/^[1-9]\d{0,15}$/.test(idText)) throw detail(404, 'Not found.')

  // A gateway in front of the real service refuses oversized bodies before anything else.
  if (body.tooLarge) throw detail(504, 'Request body is larger than 1 MiB.')

  const token = bearerToken(request)
  const user = dependencies.tokens.verify(token)
  if (!user || token === undefined) {
    throw detail(401, token === undefined ? 'Authentication credentials were not provided.' : 'Invalid or expired token.', {
      'WWW-Authenticate': 'Bearer realm="api"',
    })
  }
  const retryAfter = dependencies.faults.throttle(token)
  if (retryAfter !== null) {
    throw detail(429, `Request was throttled. Expected available in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`, { 'Retry-After': String(retryAfter) })
  }
  if (dependencies.faults.shouldFail()) throw detail(500, 'Internal server error (injected by the sandbox).')

  const method = request.method ?? 'GET'
  const allowed = idText === undefined ? ['GET', 'POST'] : ['GET', 'PUT', 'DELETE']
  if (!allowed.includes(method)) throw detail(405, `Method "${method}" not allowed.`, { Allow: allowed.join(', ') })
  if (method !== 'GET' && !user.canWrite) throw detail(403, 'You do not have permission to perform this action.')

  const supported = idText === undefined && method === 'GET' ? ['page', 'page_size'] : []
  const unsupported = [...new Set(query.keys())].filter((name) => !supported.includes(name))
  if (unsupported.length > 0) throw detail(400, `Unsupported query parameter${unsupported.length > 1 ? 's' : ''}: ${unsupported.join(', ')}.`)
  for (const name of supported) if (query.getAll(name).length > 1) throw detail(400, `Query parameter ${name} is given more than once.`)

  const store = dependencies.store()
  if (idText === undefined) {
    if (method === 'GET') return list(kind, query, store, dependencies.origin)
    return create(kind, parseJson(body), store)
  }
  const id = Number(idText)
  const current = store.store(kind).get(id)
  if (!current) throw detail(404, 'Not found.')
  if (method === 'GET') return { status: 200, body: current }
  if (method === 'PUT') return replace(kind, current, parseJson(body), store)
  return remove(kind, current, store)
}

function parseJson(body: ReadBody): unknown {
  try {
    return JSON.parse(body.bytes.toString('utf8'))
  } catch (error) {
    throw detail(400, `JSON parse error - ${error instanceof Error ? error.message : 'invalid JSON'}`)
  }
}

function positiveInteger(query: URLSearchParams, name: string, fallback: number): number | null {
  const text = query.get(name)
  if (text === null) return fallback
  return /^[1-9]\d{0,8}$/.test(text) ? Number(text) : null
}

function list(kind: Kind, query: URLSearchParams, store: WorkflowStore, origin: string): Result {
  const pageSize = positiveInteger(query, 'page_size', DEFAULT_PAGE_SIZE)
  if (pageSize === null || pageSize > MAX_PAGE_SIZE) throw detail(400, `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}.`)
  const page = positiveInteger(query, 'page', 1)
  if (page === null) throw detail(404, 'Invalid page.')
  const entities = store.store(kind)
  const count = entities.count
  const pages = Math.max(1, Math.ceil(count / pageSize))
  if (page > pages) throw detail(404, 'Invalid page.')
  // Links keep the client's other parameters (page_size) and are absolute, like Django REST's.
  const link = (target: number): string => {
    const parameters = new URLSearchParams(query)
    if (target === 1) parameters.delete('page')
    else parameters.set('page', String(target))
    const search = parameters.toString()
    return `${origin}/workflow/v1/${kind}/${search ? `?${search}` : ''}`
  }
  return {
    status: 200,
    body: {
      count,
      next: page < pages ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
      results: entities.page((page - 1) * pageSize, pageSize),
    },
  }
}

/** Cross-entity rules: unique external_id within a kind (409), references that must exist (400). */
function checkRelations(kind: Kind, fields: Record<string, unknown>, store: WorkflowStore, selfId: number | null): void {
  const errors: FieldErrors = {}
  if (kind === 'ad_units' && typeof fields['publisher'] === 'number' && !store.publishers.get(fields['publisher'])) {
    errors['publisher'] = [`Invalid pk "${fields['publisher']}" - object does not exist.`]
  }
  if (kind === 'agencies' && Array.isArray(fields['brands'])) {
    const missing = fields['brands'].filter((brand): brand is number => typeof brand === 'number' && !store.brands.get(brand))
    if (missing.length > 0) errors['brands'] = missing.map((brand) => `Invalid pk "${brand}" - object does not exist.`)
  }
  if (Object.keys(errors).length > 0) throw new HttpProblem(400, errors)
  const external = fields['external_id']
  if (typeof external === 'string' && external !== '') {
    const holder = store.store(kind).findByExternalId(external)
    if (holder !== undefined && holder !== selfId) {
      throw detail(409, `A ${SINGULAR[kind]} with external_id '${external}' already exists (id ${holder}).`)
    }
  }
}

function validated(kind: Kind, body: unknown, previous?: AnyEntity): Record<string, unknown> {
  const result = validateEntity(kind, body, previous)
  if (!result.ok) throw new HttpProblem(400, result.errors)
  return result.fields
}

function create(kind: Kind, body: unknown, store: WorkflowStore): Result {
  const fields = validated(kind, body)
  checkRelations(kind, fields, store, null)
  delete fields['id']
  return { status: 201, body: store.create(kind, fields) }
}

function replace(kind: Kind, current: AnyEntity, body: unknown, store: WorkflowStore): Result {
  const fields = validated(kind, body, current)
  checkRelations(kind, fields, store, current.id)
  store.replace(kind, current.id, fields)
  return { status: 204 }
}

function remove(kind: Kind, current: AnyEntity, store: WorkflowStore): Result {
  if (kind === 'publishers') {
    const units = store.adUnitCount(current.id)
    if (units > 0) throw detail(406, `Cannot delete publisher ${current.id}: ${units} ad unit${units === 1 ? '' : 's'} depend${units === 1 ? 's' : ''} on it.`)
  }
  if (kind === 'brands') {
    const agencies = store.agencyCount(current.id)
    if (agencies > 0) throw detail(406, `Cannot delete brand ${current.id}: ${agencies} agenc${agencies === 1 ? 'y uses' : 'ies use'} it.`)
  }
  store.remove(kind, current.id)
  return { status: 204 }
}
