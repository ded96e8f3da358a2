/**
 * What the platform clients need to reach a service, and how to sign in. Defined here, not in
 * profiles, because a stored profile is only one source of them: the CLI's flags and the demo
 * workspace give them too, and the API clients should not depend on the profiles feature.
 */
export interface ConnectionSettings {
  baseUrl: string
  authUrl: string
  reportUrl: string
  serviceId: string
  /** The reporting service's id when it differs from the workflow one. */
  reportServiceId: string | null
}

/** The credential itself, held in main's memory only for as long as a call needs it. */
export type Credentials = { method: 'password'; username: string; password: string } | { method: 'token'; token: string }
