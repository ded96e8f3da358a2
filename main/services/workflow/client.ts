import type { ConnectionSettings } from '../connection/settings'
import { AppError } from '../errors'
import { authorized } from '../auth/authorized'
import type { TokenProvider } from '../auth/token-provider'
import { throwIfAborted } from '../http/abort'
import { discard, parseUrl, readBody, readErrorBody, type HttpClient, type HttpMethod, type HttpResponse } from '../http/client'
import { badResponse, errorFromHttp } from '../http/errors'
import { maskSecrets } from '../http/secrets'
import { expectJson } from '../http/validate'
import { assertEntityId, assertEntityKind, entitySchema, listEnvelopeSchema, type Entity, type EntityId } from './entities'
import { uncertainWrite } from './uncertain-write'

export interface ListProgress {
  /** Entities received so far. */
  fetched: number
  /** The total the platform reported on the latest page. */
  count: number
}

export interface ListOptions {
  signal?: AbortSignal
  onProgress?: (progress: ListProgress) => void
  /**
   * Query parameters for the first page only, passed through as given (the platform answers 400
   * to any it does not support, so none are ever added on our own). Later pages follow `next`.
   */
  query?: Record<string, string>
}

export interface WorkflowCallOptions {
  signal?: AbortSignal
}

export interface WorkflowClient {
  /** Pages of entities, fetched one at a time as the caller asks for them. */
  list(kind: string, options?: ListOptions): AsyncGenerator<Entity[], void, undefined>
  get(kind: string, id: EntityId, options?: WorkflowCallOptions): Promise<Entity>
  /** Returns the created entity, with the id the platform gave it. */
  create(kind: string, entity: Record<string, unknown>, options?: WorkflowCallOptions): Promise<Entity>
  /** Sends the whole entity (the platform's advice, to avoid validation errors); the platform answers 204. */
  update(kind: string, id: EntityId, entity: Record<string, unknown>, options?: WorkflowCallOptions): Promise<void>
  delete(kind: string, id: EntityId, options?: WorkflowCallOptions): Promise<void>
}

/**
 * How far a listing is followed. A real list ends well before these (the platform's largest
 * kinds hold some hundreds of thousands of entities in pages of up to 1,000); a server whose
 * `next` never ends would otherwise have a sync fill memory forever.
 */
export const MAX_LIST_PAGES = 10_000
export const MAX_LIST_ROWS = 5_000_000

export interface ListLimits {
  maxPages: number
  maxRows: number
}

export interface WorkflowClientOptions {
  http: HttpClient
  tokens: TokenProvider
  settings: Pick<ConnectionSettings, 'baseUrl'>
  /** For tests: MAX_LIST_PAGES and MAX_LIST_ROWS by default. */
  limits?: Partial<ListLimits>
}

export function createWorkflowClient({ http, tokens, settings, limits = {} }: WorkflowClientOptions): WorkflowClient {
  const maxPages = limits.maxPages ?? MAX_LIST_PAGES
  const maxRows = limits.maxRows ?? MAX_LIST_ROWS
  const base = settings.baseUrl.replace(/\/+$/, '')
  const kindUrl = (kind: string): string => `${base}/${kind}/`
  const entityUrl = (kind: string, id: EntityId): string => `${base}/${kind}/${encodeURIComponent(String(id))}/`

  /** One request with the token attached; a 401 renews the token once; any other failure becomes its AppError. */
  function send(method: HttpMethod, url: string, body: unknown, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const read = method === 'GET'
    const payload = body === undefined ? undefined : JSON.stringify(body)
    return authorized<HttpResponse>(tokens, signal, async (token) => {
      const response = await http.request({ method, url, headers: { authorization: `Bearer ${token}` }, body: payload, read, signal })
      if (response.status >= 200 && response.status < 300) return { value: response }
      const failure = { status: response.status, headers: response.headers, body: await readErrorBody(response), context: response.context }
      const error = errorFromHttp(failure)
      if (response.status === 401) return { rejected: error }
      throw error
    })
  }

  /** A write whose outcome we cannot know is said so, instead of inviting a blind retry. */
  async function write<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action()
    } catch (error) {
      throw uncertainWrite(error)
    }
  }

  return {
    async *list(kind, options = {}) {
      assertEntityKind(kind)
      const { signal, onProgress } = options
      const first = parseUrl(kindUrl(kind))
      const baseOrigin = first.origin
      for (const [key, value] of Object.entries(options.query ?? {})) first.searchParams.set(key, value)

      const visited = new Set<string>()
      let url: string | null = first.href
      let fetched = 0
      while (url !== null) {
        throwIfAborted(signal)
        if (visited.size >= maxPages) throw listTooLong(kind, `more than ${maxPages.toLocaleString('en-US')} pages`, first.href)
        visited.add(url)
        const response = await send('GET', url, undefined, signal)
        const page = expectJson(listEnvelopeSchema, await readBody(response, signal), response.status, response.context, `The list of ${kind}`)
        fetched += page.results.length
        if (fetched > maxRows) throw listTooLong(kind, `more than ${maxRows.toLocaleString('en-US')} ${kind}`, first.href)
        onProgress?.({ fetched, count: page.count })
        const next: string | null = page.next === null || page.next === '' ? null : followLink(page.next, url, baseOrigin, visited, response)
        url = next
        yield page.results
      }
    },

    async get(kind, id, options = {}) {
      assertEntityKind(kind)
      assertEntityId(id)
      const response = await send('GET', entityUrl(kind, id), undefined, options.signal)
      return expectJson(entitySchema, await readBody(response, options.signal), response.status, response.context, `The ${kind} entity`)
    },

    create(kind, entity, options = {}) {
      assertEntityKind(kind)
      return write(async () => {
        const response = await send('POST', kindUrl(kind), entity, options.signal)
        try {
          return expectJson(entitySchema, await readBody(response, options.signal), response.status, response.context, `The created ${kind} entity`)
        } catch (error) {
          // The platform said 2xx: the entity exists even though we could not read it back.
          if (error instanceof AppError) {
            throw new AppError(
              error.code,
              "The entity was probably created, but the platform's answer could not be read. Refresh the list before creating it again.",
              {
                ...error.details,
                outcome: 'probably_created',
                cause: error.message,
              },
            )
          }
          throw error
        }
      })
    },

    update(kind, id, entity, options = {}) {
      assertEntityKind(kind)
      assertEntityId(id)
      return write(async () => discard(await send('PUT', entityUrl(kind, id), entity, options.signal)))
    },

    delete(kind, id, options = {}) {
      assertEntityKind(kind)
      assertEntityId(id)
      return write(async () => discard(await send('DELETE', entityUrl(kind, id), undefined, options.signal)))
    },
  }
}

/** A listing that goes on past the limits: said as what it is, not as a crash of memory later. */
function listTooLong(kind: string, past: string, url: string): AppError {
  return new AppError(
    'bad_response',
    `The list of ${kind} goes on past ${past}; AdOps Desk stops there so that a server whose list never ends cannot fill this computer's memory. Check the connection's workflow address, or contact the platform's support.`,
    { kind, url },
  )
}

/**
 * The next page's address exactly as the platform gave it, absolute or relative to the page
 * just read. It must stay on the platform's origin (the token goes with it) and must not
 * lead back to a page already read (a loop would never end).
 */
function followLink(link: string, current: string, origin: string, visited: Set<string>, { context, secrets }: HttpResponse): string {
  // The link is the server's text and goes into the error: it may quote the token back.
  const shown = (text: string): string => maskSecrets(text, secrets).slice(0, 200)
  let next: URL
  try {
    next = new URL(link, current)
  } catch {
    throw badResponse(`the link to the next page ("${shown(link)}") is not an address.`, context)
  }
  if (next.origin !== origin) {
    throw badResponse(`the link to the next page points at another server (${shown(next.origin)}); AdOps Desk does not send your token there.`, context, {
      next: shown(next.href),
    })
  }
  if (visited.has(next.href)) throw badResponse('the links between pages go round in a circle.', context, { next: shown(next.href) })
  return next.href
}
