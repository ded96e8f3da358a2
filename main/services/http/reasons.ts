import type { ResponseBody } from './body'

/**
 * Reading a reason out of whatever body a server chose to send, and putting it in a sentence.
 * Shared by the HTTP error mapping, the token service and the reporting statuses.
 */

const EXCERPT_LENGTH = 300

/**
 * Control characters (C0, DEL, C1) and the invisible marks that reorder or hide text (bidi
 * overrides and isolates, zero-width marks): a server's text must not steer a terminal, fake a
 * line of its own in the details view, or display differently from what it is.
 */
export const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\u061c\ufeff]/g

/** A server's text cut to one short clean line, so a sentence and details stay readable when a server answers a whole page. */
export function excerpt(text: string): string {
  const flat = text.replace(UNSAFE_CHARACTERS, ' ').replace(/\s+/g, ' ').trim()
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat
}

/** A readable reason from whatever body the server chose: `{detail}`, `{reason}`, OAuth's `{error_description}`, text. */
export function reasonOf(body: ResponseBody): string | null {
  if (body.kind === 'json') {
    const value = body.value
    if (typeof value === 'string' && value.trim() !== '') return excerpt(value)
    if (isRecord(value)) {
      for (const key of ['detail', 'reason', 'error_description', 'message', 'error']) {
        const candidate = value[key]
        if (typeof candidate === 'string' && candidate.trim() !== '') return excerpt(candidate)
      }
      const fields = fieldErrorsOf(value)
      if (fields !== null) return excerpt(describeFields(fields))
    }
    return null
  }
  if (body.kind === 'text' && !looksLikeHtml(body.text, body.contentType)) {
    const text = excerpt(body.text)
    return text === '' ? null : text
  }
  return null
}

/** A field map longer than this is a server misbehaving, not a form to correct. */
const MAX_FIELDS = 50
const MAX_MESSAGES_PER_FIELD = 10

/** A Django-style field map `{"name": ["This field is required."]}`, bounded and cleaned; null when the body is not one. */
export function fieldErrorsOf(value: Record<string, unknown>): Record<string, string[]> | null {
  const fields: Record<string, string[]> = {}
  let found = 0
  for (const [key, raw] of Object.entries(value)) {
    if (key === 'detail' || key === 'status') continue
    const messages = Array.isArray(raw) ? raw.filter((item): item is string => typeof item === 'string') : typeof raw === 'string' ? [raw] : []
    if (messages.length === 0) continue
    fields[excerpt(key).slice(0, 100)] = messages.slice(0, MAX_MESSAGES_PER_FIELD).map(excerpt)
    found += 1
    if (found === MAX_FIELDS) break
  }
  return found > 0 ? fields : null
}

/** `name: This field is required; url: Enter a valid URL`, with Django's `non_field_errors` left unlabelled. */
export function describeFields(fields: Record<string, string[]>): string {
  const clause = (messages: string[]): string => messages.map((message) => message.trim().replace(/\.$/, '')).join(', ')
  return Object.entries(fields)
    .map(([field, messages]) => (field === 'non_field_errors' ? clause(messages) : `${field}: ${clause(messages)}`))
    .join('; ')
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function looksLikeHtml(text: string, contentType: string | null): boolean {
  return (contentType ?? '').includes('html') || /^\s*<(!doctype|html|head|body)/i.test(text)
}

export function looksLikeYaml(text: string, contentType: string | null): boolean {
  const type = contentType ?? ''
  if (type.includes('yaml')) return true
  if (/^\s*(---|%YAML)/.test(text)) return true
  // Unlabelled, a YAML mapping starts with `key: value` lines; plain text ("Error: …") is labelled text/*.
  return !type.startsWith('text/') && /^\s*[A-Za-z_][\w-]*:(\s|$)/.test(text) && /\n\s*[A-Za-z_][\w-]*:(\s|$)/.test(text)
}

/** The server's reason (or our fallback) ending in a full stop, ready to be followed by what to do. */
export function sentence(reason: string | null, fallback: string): string {
  const text = reason ?? fallback
  return /[.!?…]$/.test(text) ? text : `${text}.`
}
