import { formatBytes } from '../../../common/format'
import { AppError } from '../errors'
import type { ResponseBody } from './body'
import { errorCodeOf, networkFailureOf } from './network-codes'
import { describeFields, excerpt, fieldErrorsOf, isRecord, looksLikeHtml, looksLikeYaml, reasonOf, sentence } from './reasons'

/**
 * The one error model for both platform APIs. Every failure becomes an AppError whose
 * message is a sentence the user can act on and whose details keep the raw facts
 * (HTTP code, API status, reason, field errors, wait time, a short excerpt of the body).
 * This file maps HTTP answers and transport failures; the reporting service's body
 * statuses are mapped in reporting/statuses.ts.
 */

/** Where a failure happened, kept in details so a support person can tell requests apart. */
export interface RequestContext {
  method: string
  url: string
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
      return new AppError(
        'forbidden',
        `You do not have permission to do this: ${sentence(reason, 'the platform refused it')} Ask an administrator of the platform for access.`,
        withReason(),
      )
    case 404:
      return new AppError(
        'not_found',
        `Not found: ${sentence(reason, `nothing at ${failure.context.url}`)} It may have been deleted, or the address of the connection is wrong.`,
        withReason(),
      )
    case 405:
      return new AppError(
        'method_not_allowed',
        `The platform does not allow ${failure.context.method} on ${failure.context.url}. This kind of entity may not support that action.`,
        withReason(),
      )
    case 406:
      return new AppError(
        'dependents',
        `This cannot be done because other entities depend on it: ${sentence(reason, 'the platform refused it')} Remove or reassign them first.`,
        withReason(),
      )
    case 409:
      return new AppError(
        'conflict',
        `The platform reported a conflict: ${sentence(reason, 'another entity may already use the same external id')} Change the conflicting value and try again.`,
        withReason(),
      )
    case 429: {
      const wait = retryAfterSeconds(failure.headers['retry-after'], now)
      const when = wait === null ? 'Wait a little' : `Wait ${wait} second${wait === 1 ? '' : 's'}`
      return new AppError(
        'throttled',
        `The platform is limiting how fast requests can be made. ${when} and try again.`,
        withReason({ retryAfterSeconds: wait }),
      )
    }
    case 504:
      return new AppError('timeout', `The platform timed out (the request may be too large). Narrow it or try again later.`, withReason())
    default:
      if (status >= 500) {
        return new AppError(
          'server',
          `The platform had a problem answering (HTTP ${status}). Try again later; if it keeps happening, contact the platform's support.`,
          withReason(),
        )
      }
      return new AppError('bad_response', `The platform answered with an unexpected HTTP ${status}: ${sentence(reason, 'no explanation given')}`, withReason())
  }
}

export function badResponse(what: string, context: RequestContext, extra: Record<string, unknown> = {}): AppError {
  return new AppError(
    'bad_response',
    `The platform answered something AdOps Desk cannot read: ${what} Check that the connection's addresses point at the platform's API, or try again later.`,
    {
      method: context.method,
      url: context.url,
      ...extra,
    },
  )
}

/** Why a body that should be JSON is not, in words. */
export function unreadableBody(body: ResponseBody, status: number, context: RequestContext): AppError {
  if (body.kind === 'empty') return badResponse('the answer was empty.', context, { httpStatus: status })
  if (body.kind === 'text') {
    const details = { httpStatus: status, contentType: body.contentType, body: excerpt(body.text) }
    if (looksLikeHtml(body.text, body.contentType)) return badResponse('a web page (HTML) instead of JSON.', context, details)
    if (looksLikeYaml(body.text, body.contentType))
      return badResponse('YAML instead of JSON (the service ignored "Accept: application/json").', context, details)
    return badResponse('invalid or truncated JSON.', context, details)
  }
  return badResponse('an answer of the wrong shape.', context, { httpStatus: status })
}

/** A success answer longer than the client reads at once (see MAX_RESPONSE_BYTES). */
export function answerTooLarge(context: RequestContext, limitBytes: number): AppError {
  return new AppError(
    'bad_response',
    `The platform sent more than ${formatBytes(limitBytes)} in one answer, more than AdOps Desk reads at once (so that a server that never stops cannot fill this computer's memory). Check the connection's addresses; for a report, narrow the dates or the breakdown, or export it to a file instead.`,
    { method: context.method, url: context.url, limitBytes },
  )
}

/** A call that went past its overall deadline while the platform was still (slowly) answering. */
export function deadlinePassed(context: RequestContext, deadlineMs: number): AppError {
  const seconds = Math.round(deadlineMs / 1000)
  const within = seconds >= 120 ? `${Math.round(seconds / 60)} minutes` : seconds >= 1 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${deadlineMs} ms`
  return new AppError(
    'timeout',
    `The platform did not finish answering within ${within}. Check your network or VPN and try again; a very large request may need narrowing.`,
    { method: context.method, url: context.url, deadlineSeconds: seconds },
  )
}

/* ---------- transport failures (no HTTP answer) ---------- */

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
  const failure = networkFailureOf(code)
  if (failure === 'slow') {
    return new AppError(
      'timeout',
      'The platform did not answer in time. Check your network or VPN and try again; a very large request may need narrowing.',
      details,
    )
  }
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR' || (error instanceof Error && error.name === 'AbortError')) return cancelled(context)
  if (failure === 'refused') {
    const address = hostAndPort(context.url)
    return new AppError(
      'network',
      `Nothing answers at ${address ?? "the platform's address"}. No service listens there: check the connection's addresses and port, or whether the platform or your VPN is up, then try again.`,
      details,
    )
  }
  if (code !== null && (failure !== null || code.startsWith('E'))) {
    const host = safeHost(context.url)
    return new AppError(
      'network',
      `The platform is offline or unreachable${host === null ? '' : ` (${host})`}. Check your network or VPN connection and the connection's address, then try again.`,
      details,
    )
  }
  return new AppError('network', 'The connection to the platform failed. Check your network or VPN connection and try again.', details)
}

/** The host with its port, the scheme's default one spelled out: a refusal is about that port. */
function hostAndPort(url: string): string | null {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port === '' ? (parsed.protocol === 'https:' ? '443' : '80') : parsed.port}`
  } catch {
    return null
  }
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).host
  } catch {
    return null
  }
}
