import type { CliServices } from './services'
import type { OptionValues } from './options'
import type { ConnectionSettings, Credentials } from '../services/connection/settings'
import { UsageError } from './usage'

export type ApiNeeded = 'workflow' | 'reporting'

export interface ResolvedConnection {
  settings: ConnectionSettings
  credentials: () => Promise<Credentials>
}

const flagFor: Record<'baseUrl' | 'authUrl' | 'reportUrl' | 'serviceId', string> = {
  baseUrl: '--base-url',
  authUrl: '--auth-url',
  reportUrl: '--report-url',
  serviceId: '--service-id',
}

function checkAddress(flag: string, value: string): string {
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return value
  } catch {
    /* reported below */
  }
  throw new UsageError(`${flag} must be an http(s) address, not "${value}".`)
}

/**
 * Where to connect and how to sign in: a saved profile (its secret from the keychain), or flags
 * with the secret from the environment, never from a flag (flags end up in shell history).
 */
export async function resolveConnection(values: OptionValues, env: Record<string, string | undefined>, services: CliServices, api: ApiNeeded): Promise<ResolvedConnection> {
  if (values.profile !== undefined) {
    const mixed = (['base-url', 'auth-url', 'report-url', 'service-id', 'report-service-id', 'username'] as const).filter((name) => values[name] !== undefined)
    if (mixed.length > 0) throw new UsageError(`--profile cannot be combined with --${mixed.join(', --')}.`)
    const stored = await services.profiles.find(values.profile)
    if (stored === null) throw new UsageError(`No saved connection is named "${values.profile}". Run "profiles list" to see them.`)
    return {
      settings: { baseUrl: stored.baseUrl, authUrl: stored.authUrl, reportUrl: stored.reportUrl, serviceId: stored.serviceId, reportServiceId: stored.reportServiceId },
      credentials: () => services.profiles.credentials(stored.id),
    }
  }

  const required: Array<keyof typeof flagFor> = ['authUrl', 'serviceId', api === 'workflow' ? 'baseUrl' : 'reportUrl']
  const given = {
    baseUrl: values['base-url'],
    authUrl: values['auth-url'],
    reportUrl: values['report-url'],
    serviceId: values['service-id'],
  }
  const missing = required.filter((key) => given[key] === undefined || given[key].trim() === '')
  if (missing.length > 0) {
    throw new UsageError(`Say where to connect: --profile NAME, or ${missing.map((key) => flagFor[key]).join(', ')} (missing).`)
  }
  for (const key of ['baseUrl', 'authUrl', 'reportUrl'] as const) {
    const value = given[key]
    if (value !== undefined) checkAddress(flagFor[key], value)
  }

  let credentials: Credentials
  if (values.username !== undefined) {
    const password = env.ADOPS_PASSWORD
    if (password === undefined || password === '') throw new UsageError('--username needs the password in the environment variable ADOPS_PASSWORD.')
    credentials = { method: 'password', username: values.username, password }
  } else {
    const token = env.ADOPS_TOKEN
    if (token === undefined || token.trim() === '') throw new UsageError('Say who signs in: --username NAME with ADOPS_PASSWORD set, or a permanent token in ADOPS_TOKEN.')
    credentials = { method: 'token', token: token.trim() }
  }
  return {
    settings: {
      baseUrl: given.baseUrl ?? '',
      authUrl: given.authUrl ?? '',
      reportUrl: given.reportUrl ?? '',
      serviceId: given.serviceId ?? '',
      reportServiceId: values['report-service-id'] ?? null,
    },
    credentials: async () => credentials,
  }
}
