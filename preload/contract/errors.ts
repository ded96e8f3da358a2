/** The one error shape that crosses the bridge, and the outcome every call resolves to. */
import { z } from 'zod'
import { dependentSchema } from './entities'
import { entityIdSchema } from './primitives'

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

/*
 * Typed error details (issue 21 §3; as undici names one error class per failure with typed
 * fields). Each key has one meaning and one type, whatever the code; the page reads them
 * without casts. Keys the page has no use for never cross (main/services/error-shape.ts drops
 * them, and parsing with these schemas strips any unknown key): never a path, a secret or a
 * raw server body.
 */

/** Facts of the call behind an error, for the details line and for support. */
const callFacts = {
  /** The HTTP code of the platform's answer. */
  httpStatus: z.int().optional(),
  /** The reporting API's `status` (`bad_request`, `access_error`…). */
  apiStatus: z.string().optional(),
  /** The platform's own words, cleaned and bounded. */
  reason: z.string().optional(),
  method: z.string().optional(),
  url: z.string().optional(),
  /** A paging link that was refused. */
  next: z.string().optional(),
  contentType: z.string().optional(),
  /** A Node/undici error code (`ECONNREFUSED`, `UND_ERR_…`). */
  errorCode: z.string().optional(),
  /** The underlying failure's message, file paths reduced to file names. */
  error: z.string().optional(),
  cause: z.string().optional(),
  header: z.array(z.string()).optional(),
  limitBytes: z.int().optional(),
  deadlineSeconds: z.int().optional(),
  serviceId: z.string().optional(),
  channel: z.string().optional(),
  issue: z.string().optional(),
}

/** A form or builder field an input issue names: its path and the sentence to show there. */
export const inputIssueSchema = z.object({ path: z.string(), message: z.string() })
export type InputIssue = z.infer<typeof inputIssueSchema>

/** Where rejected input went wrong, so a form shows each sentence next to its field. */
const inputFacts = {
  /** `{field: [messages]}`. */
  fields: z.record(z.string(), z.array(z.string())).optional(),
  /** The bridge's own input check (`{path, message}`), or plain lines from a response check. */
  issues: z.array(z.union([z.string(), inputIssueSchema])).optional(),
  /** The report builder's field (a definition path such as `dates`, or a platform parameter). */
  field: z.string().optional(),
  /** Which part of the field: `start`/`end` of `dates`, a parameter of the audience settings. */
  part: z.string().optional(),
  /** Which entry of a list field (a filter, a condition). */
  index: z.int().optional(),
}

/** What the error is about. */
const subjectFacts = {
  profileId: z.string().optional(),
  id: entityIdSchema.optional(),
  kind: z.string().optional(),
  key: z.string().optional(),
  /** Fields someone else changed (a conflict-checked update). */
  changed: z.array(z.string()).optional(),
  /** A write whose answer never came: did it happen? */
  outcome: z.enum(['unknown', 'probably_created']).optional(),
}

/** The details of every code not listed below. */
export const errorDetailsSchema = z.object({ ...callFacts, ...inputFacts, ...subjectFacts })
/** `throttled`: how long the platform asked us to wait (null: it did not say). */
export const throttledDetailsSchema = errorDetailsSchema.extend({ retryAfterSeconds: z.number().nullable().optional() })
/** `dependents` (406): who depends on the entity, from main's mirrors. */
export const dependentsDetailsSchema = errorDetailsSchema.extend({ dependents: z.array(dependentSchema).optional() })

/** Every key any error's details may hold: what the page reads (`ApiError.details`). */
export type ErrorDetails = z.infer<typeof errorDetailsSchema> & Partial<z.infer<typeof throttledDetailsSchema> & z.infer<typeof dependentsDetailsSchema>>

type PlainCode = Exclude<ErrorCode, 'throttled' | 'dependents'>
const plainCodes = errorCodes.filter((code): code is PlainCode => code !== 'throttled' && code !== 'dependents')

/** The details schema of one code: a key of another code's shape is stripped, a key of the wrong type rejected. */
export function errorDetailsSchemaOf(code: ErrorCode): typeof errorDetailsSchema | typeof throttledDetailsSchema | typeof dependentsDetailsSchema {
  if (code === 'throttled') return throttledDetailsSchema
  if (code === 'dependents') return dependentsDetailsSchema
  return errorDetailsSchema
}

export const apiErrorSchema = z.discriminatedUnion('code', [
  z.object({ code: z.literal('throttled'), message: z.string(), details: throttledDetailsSchema.optional() }),
  z.object({ code: z.literal('dependents'), message: z.string(), details: dependentsDetailsSchema.optional() }),
  z.object({ code: z.enum(plainCodes), message: z.string(), details: errorDetailsSchema.optional() }),
])
export type ApiErrorShape = z.infer<typeof apiErrorSchema>

/** What every bridge call resolves to: the renderer never receives a thrown exception across the bridge. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ApiErrorShape }
