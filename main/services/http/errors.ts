import { AppError } from '../errors'
import type { ResponseBody } from './body'

/**
 * The one error model for both platform APIs. Every failure becomes an AppError whose
 * message is a sentence the user can act on and whose details keep the raw facts
 * (HTTP code, API status, reason, field errors, wait time, a short excerpt of the body).
 */

/** Where a failure happened, kept in details so a support person can tell requests apart. */
export interface RequestContext {
  method: string
  url: string
}

const EXCERPT_LENGTH = 300

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat
}

/** A readable reason from whatever body the server chose: `{detail}`, `{reason}`, OAuth's `{error_description}`, text. */
export function reasonOf(body: ResponseBody): string | null {
  if (body.kind === 'json') {
    const value = body.value
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
    if (isRecord(value)) {
      for (const key of ['detail', 'reason', 'error_description', 'message', 'error']) {
        const candidate = value[key]
        if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim()
      }
      const fields = fieldErrorsOf(value)
      if (fields !== null) return describeFields(fields)
    }
    return null
  }
  if (body.kind === 'text' && !looksLikeHtml(body.text, body.contentType)) {
    const text = excerpt(body.text)
    return text === '' ? null : text
  }
  return null
}

/** A Django-style field map `{"name": ["This field is required."]}`; null when the body is not one. */
export function fieldErrorsOf(value: Record<string, unknown>): Record<string, string[]> | null {
  const fields: Record<string, string[]> = {}
  let found = false
  for (const [key, raw] of Object.entries(value)) {
    if (key === 'detail' || key === 'status') continue
    const messages = Array.isArray(raw) ? raw.filter((item): item is string => typeof item === 'string') : typeof raw === 'string' ? [raw] : []
    if (messages.length === 0) continue
    fields[key] = messages
    found = true
  }
  return found ? fields : null
}

function describeFields(fields: Record<string, string[]>): string {
  const clause = (messages: string[]): string => messages.map((message) => message.trim().replace(/\.$/, '')).join(', ')
  return Object.entries(fields)
    .map(([field, messages]) => (field === 'non_field_errors' ? clause(messages) : `${field}: ${clause(messages)}`))
    .join('; ')
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function looksLikeHtml(text: string, contentType: string | null): boolean {
  return (contentType ?? '').includes('html') || /^\s*<(!doctype|html|head|body)/i.test(text)
}

export function looksLikeYaml(text: string, contentType: string | null): boolean {
  const type = contentType ?? ''
  if (type.includes('yaml')) return true
  if (/^\s*(---|%YAML)/.test(text)) return true
  // Unlabelled, a YAML mapping starts with `key: value` lines; plain text ("Error: …") is labelled text/*.
  return !type.startsWith('text/') && /^\s*[A-Za-z_][\w-]*:(\s|$)/.test(text) && /\n\s*[A-Za-z_][\w-]*:(\s|$)/.test(text)
}

function sentence(reason: string | null, fallback: string): string {
  const text = reason ?? fallback
  return /[.!?…]$/.test(text) ? text : `${text}.`
}

/** Seconds to wait from a `Retry-After` header: delta seconds or an HTTP date. */
export function retryAfterSeconds(header: string | string[] | undefined, now: () => number = Date.now): number | null {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value.trim() === '') return null
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed))
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return null
  return Math.max(0, Math.ceil((date - now()) / 1000))
}

export interface HttpFailure {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: ResponseBody
  context: RequestContext
}

function baseDetails(failure: HttpFailure, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const details: Record<string, unknown> = { httpStatus: failure.status, method: failure.context.method, url: failure.context.url, ...extra }
  if (failure.body.kind === 'json') details.body = failure.body.value
  else if (failure.body.kind === 'text') details.body = excerpt(failure.body.text)
  return details
}

export function signInRejected(reason: string | null, details: Record<string, unknown>): AppError {
  return new AppError(
    'auth',
    `Sign-in rejected: ${sentence(reason, 'the platform did not accept the credentials')} Check the username and password (or the token) of this connection.`,
    reason === null ? details : { ...details, reason },
  )
}

/** Maps a non-2xx HTTP answer (workflow API, token service, or a reporting answer without a status) to its case. */
export function errorFromHttp(failure: HttpFailure, now: () => number = Date.now): AppError {
  const { status, body } = failure
  const reason = reasonOf(body)
  const withReason = (extra: Record<string, unknown> = {}) => baseDetails(failure, reason === null ? extra : { ...extra, reason })

  switch (status) {
    case 400: {
      const fields = body.kind === 'json' && isRecord(body.value) && !('detail' in body.value) ? fieldErrorsOf(body.value) : null
      if (fields !== null) {
        return new AppError('validation', `The platform rejected some fields: ${sentence(describeFields(fields), '')} Correct them and try again.`, {
          httpStatus: status,
          method: failure.context.method,
          url: failure.context.url,
          fields,
        })
      }
      return new AppError('validation', `The platform rejected the request: ${sentence(reason, 'it did not say why')}`, withReason())
    }
    case 401:
      return signInRejected(reason, withReason())
    case 403:
      return new AppError('forbidden', `You do not have permission to do this: ${sentence(reason, 'the platform refused it')} Ask an administrator of the platform for access.`, withReason())
    case 404:
      return new AppError('not_found', `Not found: ${sentence(reason, `nothing at ${failure.context.url}`)} It may have been deleted, or the address of the connection is wrong.`, withReason())
    case 405:
      return new AppError('method_not_allowed', `The platform does not allow ${failure.context.method} on ${failure.context.url}. This kind of entity may not support that action.`, withReason())
    case 406:
      return new AppError('dependents', `This cannot be done because other entities depend on it: ${sentence(reason, 'the platform refused it')} Remove or reassign them first.`, withReason())
    case 409:
      return new AppError('conflict', `The platform reported a conflict: ${sentence(reason, 'another entity may already use the same external id')} Change the conflicting value and try again.`, withReason())
    case 429: {
      const wait = retryAfterSeconds(failure.headers['retry-after'], now)
      const when = wait === null ? 'Wait a little' : `Wait ${wait} second${wait === 1 ? '' : 's'}`
      return new AppError('throttled', `The platform is limiting how fast requests can be made. ${when} and try again.`, withReason({ retryAfterSeconds: wait }))
    }
    case 504:
      return new AppError('timeout', `The platform timed out (the request may be too large). Narrow it or try again later.`, withReason())
    default:
      if (status >= 500) {
        return new AppError('server', `The platform had a problem answering (HTTP ${status}). Try again later; if it keeps happening, contact the platform's support.`, withReason())
      }
      return new AppError('bad_response', `The platform answered with an unexpected HTTP ${status}: ${sentence(reason, 'no explanation given')}`, withReason())
  }
}

/** Maps a reporting `status` other than success; the status is the truth whatever the HTTP code was. */
export function errorFromReportingStatus(apiStatus: string, reason: string | null, httpStatus: number, context: RequestContext): AppError {
  const details: Record<string, unknown> = { apiStatus, httpStatus, method: context.method, url: context.url }
  if (reason !== null) details.reason = reason
  switch (apiStatus) {
    case 'bad_request':
      return new AppError('validation', `The report request was rejected: ${sentence(reason, 'the platform did not say why')} Correct it and try again.`, details)
    case 'access_error':
      // The same status covers a bad token and a missing permission. Taken as the token first;
      // when a freshly issued token is refused too, the caller turns it into `reportAccessDenied`.
      return signInRejected(reason, details)
    case 'timeout':
      return new AppError('timeout', `The report took too long on the platform: ${sentence(reason, 'it timed out')} Narrow the date range or the filters and try again.`, details)
    case 'internal_error':
      return new AppError('server', `The reporting service failed: ${sentence(reason, 'an unknown problem')} Try again later.`, details)
    default:
      return new AppError('server', `The reporting service answered with an unknown status "${apiStatus}": ${sentence(reason, 'no explanation given')}`, details)
  }
}

/** access_error for a token just issued: the token is fine, the user lacks access to the project or report. */
export function reportAccessDenied(rejected: AppError): AppError {
  const reason = typeof rejected.details?.reason === 'string' ? rejected.details.reason : null
  return new AppError('forbidden', `You do not have access to this report: ${sentence(reason, 'the platform refused it')} Check the project and report names, or ask an administrator for access.`, rejected.details)
}

export function badResponse(what: string, context: RequestContext, extra: Record<string, unknown> = {}): AppError {
  return new AppError('bad_response', `The platform answered something AdOps Desk cannot read: ${what} Check that the connection's addresses point at the platform's API, or try again later.`, {
    method: context.method,
    url: context.url,
    ...extra,
  })
}

/** Why a body that should be JSON is not, in words. */
export function unreadableBody(body: ResponseBody, status: number, context: RequestContext): AppError {
  if (body.kind === 'empty') return badResponse('the answer was empty.', context, { httpStatus: status })
  if (body.kind === 'text') {
    const details = { httpStatus: status, contentType: body.contentType, body: excerpt(body.text) }
    if (looksLikeHtml(body.text, body.contentType)) return badResponse('a web page (HTML) instead of JSON.', context, details)
    if (looksLikeYaml(body.text, body.contentType)) return badResponse('YAML instead of JSON (the service ignored "Accept: application/json").', context, details)
    return badResponse('invalid or truncated JSON.', context, details)
  }
  return badResponse('an answer of the wrong shape.', context, { httpStatus: status })
}

/* ---------- transport failures (no HTTP answer) ---------- */

const networkCodes = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ENETDOWN', 'ENETUNREACH', 'EHOSTDOWN', 'EHOSTUNREACH',
  'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED', 'UND_ERR_CONNECT_TIMEOUT',
])
const timeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

/** The code of a Node or undici error, looking through `cause` and AggregateError (happy-eyeballs connects). */
export function errorCodeOf(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current !== null && current !== undefined && depth < 5; depth += 1) {
    if (typeof current !== 'object') return null
    const candidate = current as { code?: unknown; cause?: unknown; errors?: unknown }
    if (typeof candidate.code === 'string' && candidate.code !== 'UND_ERR') return candidate.code
    current = Array.isArray(candidate.errors) && candidate.errors.length > 0 ? candidate.errors[0] : candidate.cause
  }
  return null
}

export function cancelled(context: RequestContext | null): AppError {
  return new AppError('cancelled', 'The request was cancelled.', context === null ? undefined : { method: context.method, url: context.url })
}

/** Maps a failure that never produced an HTTP answer (or broke while the body was arriving). */
export function errorFromTransport(error: unknown, context: RequestContext, signal?: AbortSignal): AppError {
  if (error instanceof AppError) return error
  if (signal?.aborted === true) return cancelled(context)
  const code = errorCodeOf(error)
  const message = error instanceof Error ? error.message : String(error)
  const details = { method: context.method, url: context.url, errorCode: code, error: message.slice(0, 300) }
  if (code !== null && timeoutCodes.has(code)) {
    return new AppError('timeout', 'The platform did not answer in time. Check your network or VPN and try again; a very large request may need narrowing.', details)
  }
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR' || (error instanceof Error && error.name === 'AbortError')) return cancelled(context)
  if (code !== null && (networkCodes.has(code) || code.startsWith('E'))) {
    const host = safeHost(context.url)
    return new AppError('network', `The platform is offline or unreachable${host === null ? '' : ` (${host})`}. Check your network or VPN connection and the connection's address, then try again.`, details)
  }
  return new AppError('network', 'The connection to the platform failed. Check your network or VPN connection and try again.', details)
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).host
  } catch {
    return null
  }
}
