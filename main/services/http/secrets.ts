/**
 * Keeping what a request carried out of what is read back for an error. A server may quote a
 * request in its error body (the form with the password, the bearer token); that text becomes
 * a sentence and details the page shows. Everything read for an error is passed through here
 * with the secrets of the request that produced it, before anything else looks at it.
 */

export const MASK = '***'

/** The forms a secret takes on the way out and back: as is, trimmed, in a URL or a form body, inside a JSON string. */
function formsOf(secret: string): string[] {
  const forms = new Set<string>()
  for (const value of [secret, secret.trim()]) {
    if (value === '') continue
    forms.add(value)
    forms.add(encodeURIComponent(value))
    forms.add(new URLSearchParams({ value }).toString().slice('value='.length))
    forms.add(JSON.stringify(value).slice(1, -1))
  }
  return [...forms]
}

/** `text` with every form of every secret replaced by `***`, longest first so a secret containing another goes whole. */
export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  if (secrets === undefined || secrets.length === 0) return text
  let masked = text
  for (const form of secrets.flatMap(formsOf).sort((left, right) => right.length - left.length)) {
    if (masked.includes(form)) masked = masked.split(form).join(MASK)
  }
  return masked
}

/** The token of an `Authorization: Bearer …` header, which a request carries as a secret without saying so. */
export function bearerTokenOf(headers: Record<string, string>): string | null {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1]
  const match = value === undefined ? null : /^Bearer\s+(.+)$/i.exec(value)
  return match?.[1] ?? null
}
