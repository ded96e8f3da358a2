/**
 * The one list of Node and undici error codes for failures that produced no HTTP answer, each
 * with what it tells about the request. The error mapping, the retry policy and the
 * uncertain-write check all read it, so they cannot drift apart.
 *
 * - `refused`: the other computer answered that nothing listens on that port. The request was
 *   certainly not sent, and repeating it within seconds finds the same: it fails at once, with
 *   its own sentence, rather than after the retry budget (some 7 s of back-off).
 * - `not-sent`: the connection never opened, so the request never reached the platform:
 *   repeating it is safe and a write was certainly not applied.
 * - `lost`: the connection broke, possibly after the request went out: a read is repeated,
 *   a write may or may not have been applied.
 * - `closed`: the socket timed out at the OS level or was closed on our side: not repeated.
 * - `slow`: undici gave up waiting for the headers or for more of the body: a timeout, not
 *   an unreachable platform.
 */
export type NetworkFailure = 'refused' | 'not-sent' | 'lost' | 'closed' | 'slow'

export const networkErrorCodes: Readonly<Record<string, NetworkFailure>> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'not-sent',
  EAI_AGAIN: 'not-sent',
  ENETUNREACH: 'not-sent',
  EHOSTUNREACH: 'not-sent',
  UND_ERR_CONNECT_TIMEOUT: 'not-sent',
  ECONNRESET: 'lost',
  ENETDOWN: 'lost',
  EHOSTDOWN: 'lost',
  EPIPE: 'lost',
  UND_ERR_SOCKET: 'lost',
  ETIMEDOUT: 'closed',
  UND_ERR_CLOSED: 'closed',
  UND_ERR_DESTROYED: 'closed',
  UND_ERR_HEADERS_TIMEOUT: 'slow',
  UND_ERR_BODY_TIMEOUT: 'slow',
}

/** What a code tells about the request; null for a code not in the list. */
export function networkFailureOf(code: string | null): NetworkFailure | null {
  return code !== null && Object.hasOwn(networkErrorCodes, code) ? (networkErrorCodes[code] ?? null) : null
}

/** True when the request certainly never reached the platform (a write that failed so was not applied). */
export function neverSent(failure: NetworkFailure | null): boolean {
  return failure === 'refused' || failure === 'not-sent'
}

/** The codes a read is repeated on: the connection failed before or while sending (a refusal is not repeated). */
export const retryableNetworkCodes: readonly string[] = Object.entries(networkErrorCodes)
  .filter(([, failure]) => failure === 'not-sent' || failure === 'lost')
  .map(([code]) => code)

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
