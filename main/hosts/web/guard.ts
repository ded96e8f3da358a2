/**
 * Who the web host answers. It listens on loopback, but loopback is not private: every web
 * page in the user's browser can send requests to it, and a DNS name an attacker controls can
 * be re-pointed at 127.0.0.1 (DNS rebinding) so that their page becomes "same origin" with
 * whatever it reaches there. So the host answers only requests that name it by its loopback
 * address and port, and only requests its own page made.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { timingSafeEqual } from 'node:crypto'

/** The addresses the host may listen on: nothing outside this machine can reach them. */
const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', 'localhost', '::1'])

export function isLoopbackAddress(address: string): boolean {
  return LOOPBACK_ADDRESSES.has(address.toLowerCase().replace(/^\[(.*)\]$/, '$1'))
}

/** The Host header values of this host on `port`: the names of loopback, never a DNS name that resolves there. */
export function ownHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
}

export interface Refusal {
  status: 421 | 403
  reason: string
}

/** What the request is for: a call and the event stream carry data; the rest is the page and its files. */
export type RouteKind = 'call' | 'events' | 'file'

/**
 * Decides before anything is read or served. Returns why a request is refused, or null.
 * - Host: must be one of ownHosts(port) (a rebinding DNS name is refused with 421, before any path).
 * - Sec-Fetch-Site (sent by every current browser): a request another site caused (a
 *   `<script src>`, an `<iframe>`, a fetch) is refused; only a top-level navigation to the page
 *   is let through, because the page that opens cannot be read by the site that linked it.
 * - Origin: when present it must be this host's own; a call (POST, state-changing) must carry it.
 *   A same-origin EventSource sends none (it is a GET), so the event stream relies on
 *   Sec-Fetch-Site and Origin when present, and on the token.
 */
export function refusal(headers: IncomingHttpHeaders, port: number, kind: RouteKind): Refusal | null {
  const host = (headers.host ?? '').toLowerCase()
  if (!ownHosts(port).has(host)) {
    return { status: 421, reason: `This preview answers only to 127.0.0.1:${port}, localhost:${port} or [::1]:${port}.` }
  }
  const site = headers['sec-fetch-site']
  if (site === 'cross-site' || site === 'same-site') {
    const topLevelPage = kind === 'file' && headers['sec-fetch-mode'] === 'navigate' && headers['sec-fetch-dest'] === 'document'
    if (!topLevelPage) return { status: 403, reason: 'Requests from other sites are refused.' }
  }
  const origin = headers.origin
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) return { status: 403, reason: 'Requests from other origins are refused.' }
  if (kind === 'call' && origin === undefined) return { status: 403, reason: 'A call must say where it comes from (Origin).' }
  return null
}

/** Compares a presented token with the run's without leaking, through timing, how much of it matched. */
export function tokenMatches(presented: unknown, token: string): boolean {
  if (typeof presented !== 'string') return false
  const given = Buffer.from(presented)
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
