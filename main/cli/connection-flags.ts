import type { CliServices } from './services'
import type { OptionValues } from './options'
import type { ConnectionSettings, Credentials } from '../services/connection/settings'
import { normaliseServiceUrl } from '../services/profiles/validation'
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

/**
 * The same address rules as a saved connection (https, or plain http to this computer only;
 * no user or password in it). The value itself is never repeated in the message: a mistyped
 * address may still hold a password, and stderr ends up in logs.
 */
function checkAddress(flag: string, value: string): string {
  let parsed: URL
  try {
    parsed = new URL(value.trim())
  } catch {
    throw new UsageError(`${flag} is not a valid address; it should look like https://api.example.com/v1.`)
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new UsageError(
      `${flag} must not contain a user name or password (addresses end up in shell history and logs): sign in with --username and the password in ADOPS_PASSWORD, or a token in ADOPS_TOKEN.`,
    )
  }
  const result = normaliseServiceUrl(value)
  if ('error' in result) throw new UsageError(`${flag}: ${result.error.replace(/\.?$/, '.')}`)
  return result.url
}

/**
 * Where to connect and how to sign in: a saved profile (its secret from the keychain), or flags
 * with the secret from the environment, never from a flag (flags end up in shell history).
 */
export async function resolveConnection(
  values: OptionValues,
  env: Record<string, string | undefined>,
  services: CliServices,
  api: ApiNeeded,
): Promise<ResolvedConnection> {
  if (values.profile !== undefined) {
    const mixed = (['base-url', 'auth-url', 'report-url', 'service-id', 'report-service-id', 'username'] as const).filter((name) => values[name] !== undefined)
    if (mixed.length > 0) throw new UsageError(`--profile cannot be combined with --${mixed.join(', --')}.`)
    const stored = await services.profiles.find(values.profile)
    if (stored === null) throw new UsageError(`No saved connection is named "${values.profile}". Run "profiles list" to see them.`)
    return {
      settings: {
        baseUrl: stored.baseUrl,
        authUrl: stored.authUrl,
        reportUrl: stored.reportUrl,
        serviceId: stored.serviceId,
        reportServiceId: stored.reportServiceId,
      },
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
  const addresses = { baseUrl: '', authUrl: '', reportUrl: '' }
  for (const key of ['baseUrl', 'authUrl', 'reportUrl'] as const) {
    const value = given[key]
    if (value !== undefined) addresses[key] = checkAddress(flagFor[key], value)
  }

  let credentials: Credentials
  if (values.username !== undefined) {
    const password = env.ADOPS_PASSWORD
    if (password === undefined || password === '') throw new UsageError('--username needs the password in the environment variable ADOPS_PASSWORD.')
    credentials = { method: 'password', username: values.username, password }
  } else {
    const token = env.ADOPS_TOKEN
    if (token === undefined || token.trim() === '')
      throw new UsageError('Say who signs in: --username NAME with ADOPS_PASSWORD set, or a permanent token in ADOPS_TOKEN.')
    credentials = { method: 'token', token: token.trim() }
  }
  return {
    settings: {
      ...addresses,
      serviceId: given.serviceId ?? '',
      reportServiceId: values['report-service-id'] ?? null,
    },
    credentials: async () => credentials,
  }
}
