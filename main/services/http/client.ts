import { Agent, interceptors, type Dispatcher, type RetryHandler } from 'undici'
import { lazy } from '../../../common/lazy'
import { AppError } from '../errors'
import { contentTypeOf, ERROR_BODY_LIMIT, parseBody, readLimitedText, type ResponseBody } from './body'
import { answerTooLarge, deadlinePassed, errorFromTransport, type RequestContext } from './errors'
import { createRetryDecision, defaultRetryPolicy, type RetryEvent, type RetryPolicy } from './retry'
import { bearerTokenOf, dropCutTail, maskJson, maskSecrets } from './secrets'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/**
 * The most a success answer may weigh when read whole (one page of a list, one report answer).
 * The platform's largest answers are a few MB; past this a server is misbehaving, and reading on
 * would only fill memory. Exports are streamed to disk and are not read this way.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024
/**
 * The longest a call may take from sending to the last byte, retries included. The idle
 * timeouts catch a silent server, not one that sends a byte every few seconds. Exports, which
 * may rightly stream for a long time, opt out and keep only the idle timeout.
 */
export const REQUEST_DEADLINE_MS = 5 * 60 * 1000

export interface HttpClientOptions {
  /** Time to open a TCP/TLS connection. */
  connectTimeoutMs?: number
  /** Time from sending a request to receiving the response headers. */
  headersTimeoutMs?: number
  /** Longest silence while a body is arriving (not the total time: a big export may take minutes). */
  bodyTimeoutMs?: number
  keepAliveTimeoutMs?: number
  retry?: Partial<RetryPolicy>
  /** For tests: a fixed random makes backoff deterministic. */
  random?: () => number
  /** Wall clock, for Retry-After given as an HTTP date. */
  now?: () => number
  onRetry?: (event: RetryEvent & RequestContext) => void
  userAgent?: string
  /** For tests: MAX_RESPONSE_BYTES by default. */
  maxResponseBytes?: number
  /** For tests: REQUEST_DEADLINE_MS by default. */
  deadlineMs?: number
}

export interface HttpRequest {
  method: HttpMethod
  url: string
  headers?: Record<string, string>
  body?: string
  /**
   * A read (GET, or a reporting query sent as POST) is repeated on 429, 5xx and network
   * failures. A write is never repeated: the server may have acted on it already.
   */
  read: boolean
  signal?: AbortSignal
  /**
   * What the request carries that must never come back out in an error (a password in a form
   * body). A bearer token in the Authorization header is counted without being listed.
   */
  secrets?: readonly string[]
  /** null: no overall deadline, only the idle timeouts (a streamed export). Default: the client's deadline. */
  deadlineMs?: number | null
}

export type ResponseHeaders = Record<string, string | string[] | undefined>
export type ResponseStream = Dispatcher.ResponseData['body']

export interface HttpResponse {
  status: number
  headers: ResponseHeaders
  body: ResponseStream
  context: RequestContext
  /** The request's secrets, masked in whatever is read from this answer for an error. */
  secrets?: readonly string[]
  /** The most `readText`/`readBody` read of this answer (MAX_RESPONSE_BYTES unless the client was told otherwise). */
  maxBodyBytes?: number
}

export interface HttpClient {
  /** Resolves with any HTTP status; rejects only with an AppError (network, timeout, cancelled). */
  request(request: HttpRequest): Promise<HttpResponse>
  close(): Promise<void>
}

/** undici reads `retryOptions` from the dispatch options; its request types do not list it. */
type RequestWithRetry = Dispatcher.RequestOptions & { retryOptions?: RetryHandler.RetryOptions }

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...options.retry }
  const random = options.random ?? Math.random
  const now = options.now ?? Date.now
  const userAgent = options.userAgent ?? 'AdOps Desk'
  const maxBodyBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES
  const defaultDeadlineMs = options.deadlineMs ?? REQUEST_DEADLINE_MS

  // One keep-alive pool for everything; reads go through undici's retry interceptor on top of it.
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
    // Generous: a big report query may think for a while before its first byte.
    headersTimeout: options.headersTimeoutMs ?? 120_000,
    bodyTimeout: options.bodyTimeoutMs ?? 60_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
  })
  const reads = agent.compose(
    interceptors.retry({
      // The final failed answer is handed back with its body so its reason reaches the user.
      throwOnError: false,
      methods: ['GET', 'POST'],
      statusCodes: [...policy.statusCodes],
      errorCodes: [...policy.errorCodes],
      maxRetries: policy.maxRetries,
    }),
  )

  return {
    async request(request) {
      const url = parseUrl(request.url)
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent, ...request.headers }
      const bearer = bearerTokenOf(headers)
      const secrets = [...(request.secrets ?? []), ...(bearer === null ? [] : [bearer])]
      // A link the platform gave may carry a token in its query; the address goes into error details.
      // Masked when first read: building the secrets' pattern for every page of a long listing
      // cost more than anything else the client adds to a bare request (workflow-client bench).
      const context = maskedContext(request.method, url.href, secrets)
      if (request.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json;charset=UTF-8'
      if (request.signal?.aborted === true) throw errorFromTransport(request.signal.reason, context, request.signal)

      const deadline = startDeadline(request.deadlineMs === undefined ? defaultDeadlineMs : request.deadlineMs, context)
      // The caller's cancel and the deadline both stop the call; undici hands on the deadline's AppError as the failure.
      const signal = deadline === null ? request.signal : request.signal === undefined ? deadline.signal : AbortSignal.any([request.signal, deadline.signal])

      let started = false
      const dispatchOptions: RequestWithRetry = {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        body: request.body ?? null,
        signal: signal ?? null,
      }
      if (request.read && policy.maxRetries > 0) {
        dispatchOptions.retryOptions = {
          retry: createRetryDecision({
            policy,
            signal,
            responseStarted: () => started,
            random,
            now,
            onRetry: options.onRetry === undefined ? undefined : (event) => options.onRetry?.({ ...event, ...context }),
          }),
        }
      }
      try {
        const response = await (request.read ? reads : agent).request(dispatchOptions)
        started = true
        // The deadline runs until the body is read or dropped; a body left unread is stopped by it.
        response.body.once('close', () => deadline?.stop())
        return { status: response.statusCode, headers: response.headers, body: response.body, context, secrets, maxBodyBytes }
      } catch (error) {
        deadline?.stop()
        throw errorFromTransport(error, context, request.signal)
      }
    },
    close: () => agent.close(),
  }
}

/** The request's method and address, the address masked once, when something first reads it (an error, a retry notice). */
function maskedContext(method: string, href: string, secrets: readonly string[]): RequestContext {
  const masked = lazy(() => maskSecrets(href, secrets))
  return {
    method,
    get url() {
      return masked()
    },
  }
}

/** An overall deadline for one call: aborts with a `timeout` AppError when it passes. Null when the call has none. */
function startDeadline(deadlineMs: number | null, context: RequestContext): { signal: AbortSignal; stop(): void } | null {
  if (deadlineMs === null) return null
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(deadlinePassed(context, deadlineMs)), deadlineMs)
  // A pending deadline must not keep the process (the command line, a test) alive.
  timer.unref()
  return { signal: controller.signal, stop: () => clearTimeout(timer) }
}

export function parseUrl(address: string): URL {
  try {
    const url = new URL(address)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    /* reported below */
  }
  throw new AppError(
    'validation',
    `"${address.slice(0, 200)}" is not a web address AdOps Desk can call. Check the addresses of the connection (they start with https://).`,
    { url: address.slice(0, 200) },
  )
}

/**
 * The whole body as text, read up to the answer's byte limit: past it the connection is dropped
 * and the answer is `bad_response`. A connection that breaks mid-body becomes a mapped AppError.
 */
export async function readText(response: HttpResponse, signal?: AbortSignal): Promise<string> {
  const limit = response.maxBodyBytes ?? MAX_RESPONSE_BYTES
  const declared = Number(response.headers['content-length'])
  try {
    if (Number.isFinite(declared) && declared > limit) throw answerTooLarge(response.context, limit)
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > limit) throw answerTooLarge(response.context, limit)
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, size).toString('utf8')
  } catch (error) {
    // Leaving the loop early or failing before it: free the connection rather than read on.
    response.body.destroy()
    throw errorFromTransport(error, response.context, signal)
  }
}

/**
 * An error answer's body, bounded, in whichever form it came, with the request's secrets masked
 * (a server may quote the request back). Never throws: a broken error body is still an error.
 */
export async function readErrorBody(response: HttpResponse): Promise<ResponseBody> {
  const contentType = contentTypeOf(response.headers)
  try {
    const read = await readLimitedText(response.body, ERROR_BODY_LIMIT)
    // A cut body is not JSON any more; its tail may hold the start of a secret that no mask can match.
    const text = read.cut ? dropCutTail(read.text, response.secrets) : read.text
    return maskBody(parseBody(text, contentType), response.secrets)
  } catch {
    return { kind: 'empty' }
  }
}

/**
 * A body with the request's secrets masked in what its readers will see: JSON after decoding
 * (masking the raw text first missed a password the server escaped as `\/` or `\u00e4`, and
 * parsing then brought it back), text in any escaped spelling.
 */
export function maskBody(body: ResponseBody, secrets: readonly string[] | undefined): ResponseBody {
  if (body.kind === 'json') return { kind: 'json', value: maskJson(body.value, secrets) }
  if (body.kind === 'text') return { ...body, text: maskSecrets(body.text, secrets) }
  return body
}

/** Frees the connection when the body does not matter (204, or an answer already judged). */
export async function discard(response: HttpResponse): Promise<void> {
  try {
    await response.body.dump()
  } catch {
    /* the connection is gone either way */
  }
}

/**
 * A success answer's body, read whole and parsed when it is JSON. A body that is not JSON is
 * only ever reported as an error, so its text has the request's secrets masked.
 */
export async function readBody(response: HttpResponse, signal?: AbortSignal): Promise<ResponseBody> {
  const body = parseBody(await readText(response, signal), contentTypeOf(response.headers))
  return body.kind === 'text' ? maskBody(body, response.secrets) : body
}
