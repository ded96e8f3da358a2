import { z } from 'zod'
import type { AnyEntity, Kind } from './store'

/** Field map of validation errors, Django REST style: `{"field": ["message"]}`. */
export type FieldErrors = Record<string, string[]>

const REQUIRED = 'This field is required.'

const name = z
  .string({ error: 'Not a valid string.' })
  .trim()
  .min(1, { error: 'This field may not be blank.' })
  .max(255, { error: 'Ensure this field has no more than 255 characters.' })
const externalId = z.string({ error: 'Not a valid string.' }).max(100, { error: 'Ensure this field has no more than 100 characters.' })
const boolean = z.boolean({ error: 'Must be a valid boolean.' })

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
  } catch {
    return false
  }
}

const url = z.string({ error: 'Not a valid string.' }).refine(isHttpUrl, { error: 'Enter a valid URL.' })
const optionalUrl = z.string({ error: 'Not a valid string.' }).refine((text) => text === '' || isHttpUrl(text), { error: 'Enter a valid URL.' })
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i
const domain = z.string({ error: 'Not a valid string.' }).regex(DOMAIN, { error: 'Enter a valid domain name.' })
const id = z.int({ error: 'Incorrect type. Expected pk value.' }).positive({ error: 'Incorrect type. Expected pk value.' })

/** Every field each kind accepts; required ones per docs/architecture.md, the rest optional. */
const SCHEMAS = {
  publishers: z.object({ name, url, external_id: externalId.optional() }),
  brands: z.object({
    name,
    is_open_auction_allowed: boolean,
    is_pmp_allowed: boolean,
    external_id: externalId.optional(),
    advertiser_domains: z.array(domain, { error: 'Expected a list of items.' }).optional(),
  }),
  ad_units: z.object({
    name,
    publisher: id,
    external_id: externalId.optional(),
    size: z
      .string({ error: 'Not a valid string.' })
      .regex(/^(?:\d{1,4}x\d{1,4})?$/, { error: 'Enter a size like 300x250.' })
      .optional(),
  }),
  agencies: z.object({ name, external_id: externalId.optional(), brands: z.array(id, { error: 'Expected a list of items.' }).optional() }),
  bidders: z.object({ name, external_id: externalId.optional(), endpoint_url: optionalUrl.optional(), is_active: boolean.optional() }),
} as const

/** Defaults of optional fields for a new entity. */
const DEFAULTS: Record<Kind, Record<string, unknown>> = {
  publishers: { external_id: '' },
  brands: { external_id: '', advertiser_domains: [] },
  ad_units: { external_id: '', size: '' },
  agencies: { external_id: '', brands: [] },
  bidders: { external_id: '', endpoint_url: '', is_active: true },
}

export type ValidationResult = { ok: true; fields: Record<string, unknown> } | { ok: false; errors: FieldErrors }

/**
 * Validates a full entity body. A PUT must send every required field too (the spec's "send the
 * whole object"); optional fields left out keep their current values (`previous`).
 */
export function validateEntity(kind: Kind, body: unknown, previous?: AnyEntity): ValidationResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const got = Array.isArray(body) ? 'list' : body === null ? 'null' : typeof body
    return { ok: false, errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] } }
  }
  const result = SCHEMAS[kind].safeParse(body)
  if (!result.success) {
    const errors: FieldErrors = {}
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? 'non_field_errors')
      const missing = issue.code === 'invalid_type' && (body as Record<string, unknown>)[field] === undefined
      const nulled = issue.code === 'invalid_type' && (body as Record<string, unknown>)[field] === null
      let message = missing ? REQUIRED : nulled ? 'This field may not be null.' : issue.message
      if (!missing && !nulled && typeof issue.path[1] === 'number') message = `Item ${issue.path[1] + 1}: ${message}`
      ;(errors[field] ??= []).push(message)
    }
    return { ok: false, errors }
  }
  const base = previous ? { ...previous } : { ...DEFAULTS[kind] }
  return { ok: true, fields: { ...base, ...result.data } }
}
