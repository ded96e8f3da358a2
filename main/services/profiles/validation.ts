import { isIPv4 } from 'node:net'
import type { ProfileInput } from '@contract'
import { AppError } from '../errors'

export type ProfileFieldErrors = Record<string, string[]>

/**
 * Whether a host is this computer: 127.0.0.0/8, ::1 or localhost. The URL parser has already
 * written IPv4 in its canonical dotted form (`127.1` and `0x7f.1` arrive as `127.0.0.1`).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === 'localhost' || host === '[::1]') return true
  return isIPv4(host) && host.startsWith('127.')
}

const CLEARTEXT_MESSAGE =
  'Use an https:// address: over plain http:// your password and tokens would cross the network unencrypted. Plain http:// is allowed only for this computer (localhost, 127.x.x.x, ::1).'

/**
 * Check one platform address: http(s) only, plain http only to this computer (a password or
 * token sent anywhere else would be readable on the way), no credentials in it (they would
 * end up in logs and in the profiles file), trailing slashes removed so
 * `{base_url}/publishers/` is always built the same way.
 */
export function normaliseServiceUrl(value: string): { url: string } | { error: string } {
  const trimmed = value.trim()
  if (trimmed === '') return { error: 'Required' }
  let parsed: URL
  try {
    parsed = new URL(trimmed)
  } catch {
    return { error: 'Not a valid address; it should look like https://api.example.com/v1' }
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { error: 'Only http:// and https:// addresses are supported' }
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { error: 'Remove the user name and password from the address; enter them under sign-in instead' }
  }
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    return { error: CLEARTEXT_MESSAGE }
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    return { error: 'The address must not contain ? or # parts' }
  }
  const withoutSlash = `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '')
  return { url: withoutSlash }
}

export interface NormalisedProfile {
  name: string
  baseUrl: string
  authUrl: string
  reportUrl: string
  serviceId: string
  reportServiceId: string | null
  authMethod: 'password' | 'token'
  username: string | null
  defaultProject: string | null
  defaultSlicer: string | null
}

/** Validates and normalises a profile form; throws a `validation` AppError carrying every field's message at once. */
export function normaliseProfileInput(input: ProfileInput): NormalisedProfile {
  const errors: ProfileFieldErrors = {}
  const urls: Record<'baseUrl' | 'authUrl' | 'reportUrl', string> = { baseUrl: '', authUrl: '', reportUrl: '' }
  for (const field of ['baseUrl', 'authUrl', 'reportUrl'] as const) {
    const result = normaliseServiceUrl(input[field])
    if ('error' in result) errors[field] = [result.error]
    else urls[field] = result.url
  }
  if (Object.keys(errors).length > 0) {
    throw new AppError('validation', 'Some fields need attention before the connection can be saved.', { fields: errors })
  }
  return {
    name: input.name.trim(),
    ...urls,
    serviceId: input.serviceId.trim(),
    reportServiceId: emptyToNull(input.reportServiceId),
    authMethod: input.auth.method,
    username: input.auth.method === 'password' ? input.auth.username.trim() : null,
    defaultProject: emptyToNull(input.defaultProject),
    defaultSlicer: emptyToNull(input.defaultSlicer),
  }
}

/**
 * The fields that decide where a profile's secret goes and what it opens: the three addresses,
 * the service ids a token is scoped to, and who signs in how. When any of them changes, the
 * saved secret is not carried over (see profile-store's update).
 */
export const SECRET_BOUND_FIELDS = ['baseUrl', 'authUrl', 'reportUrl', 'serviceId', 'reportServiceId', 'authMethod', 'username'] as const

/** Which of SECRET_BOUND_FIELDS differ between the profile as stored and as edited (both normalised). */
export function secretBoundChanges(previous: Pick<NormalisedProfile, (typeof SECRET_BOUND_FIELDS)[number]>, next: NormalisedProfile): string[] {
  return SECRET_BOUND_FIELDS.filter((field) => previous[field] !== next[field])
}

/**
 * Where a profile's secret may be sent, as the keychain binding (see SecretKey): the origins of
 * its addresses. The password goes to the sign-in address; a permanent token, and the tokens a
 * password buys, go to the other two.
 */
export function secretBinding(profile: Pick<NormalisedProfile, 'baseUrl' | 'authUrl' | 'reportUrl'>): string {
  const origins = new Set([profile.authUrl, profile.baseUrl, profile.reportUrl].map(originOf))
  return [...origins].sort().join(' ')
}

function originOf(address: string): string {
  try {
    return new URL(address).origin
  } catch {
    // Only a hand-edited file holds an unparseable address; binding to it as written still never matches another.
    return address
  }
}

function emptyToNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}
