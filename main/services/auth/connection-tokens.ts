import type { ConnectionSettings, Credentials } from '../connection/settings'
import type { HttpClient } from '../http/client'
import { createTokenProvider, type TokenProvider } from './token-provider'

export interface ConnectionTokens {
  workflow: TokenProvider
  /** The same provider as `workflow` when the reporting service id is absent or equal. */
  reporting: TokenProvider
}

export interface ConnectionTokensOptions {
  http: HttpClient
  settings: Pick<ConnectionSettings, 'authUrl' | 'serviceId' | 'reportServiceId'>
  credentials: () => Promise<Credentials>
  now?: () => number
  renewMarginMs?: number
}

/** A token is scoped to one service id, so a connection whose two APIs have different ids holds two. */
export function createConnectionTokens(options: ConnectionTokensOptions): ConnectionTokens {
  const { settings } = options
  const provider = (serviceId: string): TokenProvider =>
    createTokenProvider({
      http: options.http,
      authUrl: settings.authUrl,
      serviceId,
      credentials: options.credentials,
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.renewMarginMs === undefined ? {} : { renewMarginMs: options.renewMarginMs }),
    })
  const workflow = provider(settings.serviceId)
  const reportServiceId = settings.reportServiceId?.trim() ?? ''
  const reporting = reportServiceId === '' || reportServiceId === settings.serviceId ? workflow : provider(reportServiceId)
  return { workflow, reporting }
}
