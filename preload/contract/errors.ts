/** The one error shape that crosses the bridge, and the outcome every call resolves to. */
import { z } from 'zod'

export const errorCodes = [
  'bad_input', // the renderer sent something the contract does not accept
  'validation', // the platform (or our form checks) rejected the fields
  'auth', // sign-in rejected
  'forbidden',
  'not_found',
  'method_not_allowed',
  'dependents', // 406: other entities depend on this one
  'conflict', // 409
  'throttled', // 429
  'server',
  'timeout',
  'network',
  'bad_response', // the platform answered something we cannot read (YAML, HTML, wrong shape)
  'cancelled',
  'keychain_unavailable',
  'storage', // a file on disk could not be read or written
  'internal',
] as const
export type ErrorCode = (typeof errorCodes)[number]

export const apiErrorSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type ApiErrorShape = z.infer<typeof apiErrorSchema>

/** What every bridge call resolves to: the renderer never receives a thrown exception across the bridge. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ApiErrorShape }
