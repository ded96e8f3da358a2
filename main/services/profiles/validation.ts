import type { ProfileInput } from '@contract'
import { AppError } from '../errors'

export type FieldErrors = Record<string, string[]>

/**
 * Check one platform address: http(s) only, no credentials in it (they would end up in
 * logs and in the profiles file), trailing slashes removed so `{base_url}/publishers/`
 * is always built the same way.
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
  const errors: FieldErrors = {}
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

function emptyToNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}
