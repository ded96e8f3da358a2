import type { Credentials } from '../connection/settings'
import type { HttpClient } from '../http/client'
import { withSignal } from '../http/abort'
import { requestPasswordToken } from './token-request'

export interface AccessToken {
  value: string
  /** Milliseconds since the epoch by the provider's clock; null for a permanent token. */
  expiresAt: number | null
}

export interface TokenProvider {
  /** The service id this provider signs in to. */
  readonly serviceId: string
  /** A token with some life left, signing in when needed. Concurrent callers share one sign-in. */
  get(options?: { signal?: AbortSignal }): Promise<AccessToken>
  /**
   * After the platform rejected `rejected`: a new token, or null when no other token can be had
   * (a permanent token that is still the same). If another caller already replaced the rejected
   * token, that replacement is returned without signing in again.
   */
  renew(rejected: string, options?: { signal?: AbortSignal }): Promise<AccessToken | null>
  /** The token held now, if any, without signing in. */
  current(): AccessToken | null
  /** Drops the held token (the profile changed, or the user signed out). */
  forget(): void
}

export interface TokenProviderOptions {
  http: HttpClient
  authUrl: string
  serviceId: string
  /** Read at sign-in time only, so a secret lives in memory no longer than a sign-in needs. */
  credentials: () => Promise<Credentials>
  now?: () => number
  /** Renew this long before expiry (capped at a tenth of the lifetime, so short-lived tokens are still used). */
  renewMarginMs?: number
}

interface HeldToken extends AccessToken {
  renewAt: number | null
}

/**
 * Tokens for one (auth_url, service_id, credentials): in memory only, renewed before they
 * expire, and never requested twice at once.
 */
export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  const now = options.now ?? Date.now
  const margin = options.renewMarginMs ?? 60_000
  let held: HeldToken | null = null
  let inFlight: Promise<HeldToken> | null = null

  const usable = (token: HeldToken | null): token is HeldToken => token !== null && (token.renewAt === null || now() < token.renewAt)

  async function signIn(): Promise<HeldToken> {
    const credentials = await options.credentials()
    if (credentials.method === 'token') return { value: credentials.token, expiresAt: null, renewAt: null }
    const issuedAt = now()
    // No caller's signal here: the sign-in is shared, and one caller giving up must not fail the others.
    const issued = await requestPasswordToken({
      http: options.http,
      authUrl: options.authUrl,
      serviceId: options.serviceId,
      username: credentials.username,
      password: credentials.password,
    })
    const lifetimeMs = issued.expiresInSeconds * 1000
    return { value: issued.accessToken, expiresAt: issuedAt + lifetimeMs, renewAt: issuedAt + lifetimeMs - Math.min(margin, lifetimeMs / 10) }
  }

  function shared(): Promise<HeldToken> {
    inFlight ??= signIn().then(
      (token) => {
        held = token
        inFlight = null
        return token
      },
      (error: unknown) => {
        inFlight = null
        throw error
      },
    )
    return inFlight
  }

  const publicView = (token: HeldToken): AccessToken => ({ value: token.value, expiresAt: token.expiresAt })

  return {
    serviceId: options.serviceId,

    async get(getOptions = {}) {
      if (usable(held)) return publicView(held)
      return publicView(await withSignal(shared(), getOptions.signal))
    },

    async renew(rejected, renewOptions = {}) {
      if (held !== null && held.value !== rejected && usable(held)) return publicView(held)
      if (inFlight === null) held = null
      const fresh = await withSignal(shared(), renewOptions.signal)
      // A permanent token cannot be renewed: the same one again would only be rejected again.
      if (fresh.value === rejected) return null
      return publicView(fresh)
    },

    current: () => (held === null ? null : publicView(held)),

    forget() {
      held = null
    },
  }
}
