/**
 * Keeping what a request carried out of what is read back for an error. A server may quote a
 * request in its error body (the form with the password, the bearer token); that text becomes
 * a sentence and details the page shows. Everything read for an error is passed through here
 * with the secrets of the request that produced it, before anything else looks at it: a JSON
 * body once decoded (`maskJson`), text in every escaped spelling (`maskSecrets`).
 */

export const MASK = '***'

/**
 * The forms a secret takes on the way out and back: as is, trimmed, composed or decomposed
 * (a server may normalise what it quotes), in a URL or a form body. Escaped forms inside JSON
 * are matched by `pattern` below, character by character.
 */
function formsOf(secret: string): string[] {
  const forms = new Set<string>()
  for (const value of [secret, secret.trim()]) {
    if (value === '') continue
    for (const spelled of new Set([value, value.normalize('NFC'), value.normalize('NFD')])) {
      forms.add(spelled)
      forms.add(encodeURIComponent(spelled))
      forms.add(new URLSearchParams({ value: spelled }).toString().slice('value='.length))
    }
  }
  return [...forms]
}

const SHORT_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' }

/** `\uXXXX` for one UTF-16 unit, hex digits in either case. */
function unicodeEscape(unit: number): string {
  const hex = unit.toString(16).padStart(4, '0')
  return String.raw`\\u` + [...hex].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('')
}

const escapeForRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

/**
 * A pattern for one form of a secret as it may appear in a body's raw text: each character as
 * is or in any of JSON's escapes (`\/`, `\"`, `\u00e4`, a surrogate pair), in any mix. A server
 * that quotes the password back JSON-escaped must not slip it past the mask, which it did while
 * only the literal and `JSON.stringify` spellings were looked for.
 */
function pattern(form: string): string {
  return [...form]
    .map((char) => {
      const units = Array.from({ length: char.length }, (_, index) => char.charCodeAt(index))
      const choices = [escapeForRegex(char), units.map(unicodeEscape).join('')]
      const short = SHORT_ESCAPES[char]
      if (short !== undefined) choices.push(String.raw`\\` + escapeForRegex(short))
      return `(?:${choices.join('|')})`
    })
    .join('')
}

/** One expression matching every form of every secret, longest first so a secret containing another goes whole; null without secrets. */
export function secretsPattern(secrets: readonly string[] | undefined): RegExp | null {
  const forms = [...new Set((secrets ?? []).flatMap(formsOf))].sort((left, right) => right.length - left.length)
  return forms.length === 0 ? null : new RegExp(forms.map(pattern).join('|'), 'g')
}

/** `text` with every form of every secret, escaped or not, replaced by `***`. */
export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  const found = secretsPattern(secrets)
  return found === null ? text : text.replace(found, MASK)
}

/**
 * A decoded JSON value with every string (and every key) masked. Masking must run on what the
 * page, the history and the log will read, that is after JSON decoding: decoding is what turns
 * `p\u00e4ss` back into `päss`.
 */
export function maskJson(value: unknown, secrets: readonly string[] | undefined): unknown {
  const found = secretsPattern(secrets)
  if (found === null) return value
  const walk = (inner: unknown): unknown => {
    if (typeof inner === 'string') return inner.replace(found, MASK)
    if (Array.isArray(inner)) return inner.map(walk)
    if (inner !== null && typeof inner === 'object')
      return Object.fromEntries(Object.entries(inner).map(([key, item]) => [key.replace(found, MASK), walk(item)]))
    return inner
  }
  return walk(value)
}

/**
 * A body cut at a byte limit may end part-way through a secret, where no pattern for the whole
 * secret can find it: the tail that could hold the start of one is dropped and marked. The
 * tail is as long as the longest spelling of a secret (every UTF-16 unit JSON-escaped as
 * `\uXXXX`, six characters each), so whatever prefix of a secret the cut left is inside it.
 */
export function dropCutTail(text: string, secrets: readonly string[] | undefined): string {
  const longest = Math.max(0, ...(secrets ?? []).flatMap(formsOf).map((form) => form.length))
  if (longest === 0) return text
  return `${text.slice(0, Math.max(0, text.length - longest * 6))}…`
}

/** The token of an `Authorization: Bearer …` header, which a request carries as a secret without saying so. */
export function bearerTokenOf(headers: Record<string, string>): string | null {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1]
  const match = value === undefined ? null : /^Bearer\s+(.+)$/i.exec(value)
  return match?.[1] ?? null
}
