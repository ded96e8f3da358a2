/**
 * Keeps secrets out of text that leaves the process: the command line's error lines and the
 * log file. Messages are built in many places, some outside our control (a server's error body
 * may quote the request back), so text is cleaned twice over:
 * - secrets this run knows (a password read from the keychain, ADOPS_TOKEN…) become `***`,
 *   in every spelling http/secrets knows, JSON-escaped ones included (`createRedactor`);
 * - anything that names itself a secret does too, whatever its value (`redactSecrets`):
 *   `Authorization`/`Bearer …`, `"password": "…"`, `token=…`, the user information of any
 *   address (`https://user:password@host`).
 */
import { MASK, secretsPattern } from '../http/secrets'

export interface Redactor {
  /** A secret to hide from now on (empty values are ignored). */
  add(secret: string | undefined): void
  redact(text: string): string
}

export { MASK }

const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi

export function createRedactor(initial: ReadonlyArray<string | undefined> = []): Redactor {
  const secrets = new Set<string>()
  // Built again only when a secret is added: every line of the log goes through it.
  let known: RegExp | null = null
  const redactor: Redactor = {
    add(secret) {
      if (secret === undefined || secret.trim() === '' || secrets.has(secret)) return
      secrets.add(secret)
      known = secretsPattern([...secrets])
    },
    redact(text) {
      // Every spelling http/secrets knows: as given, trimmed, URL- or form-encoded, composed or
      // decomposed, and JSON-escaped in any mix (`\/`, `\u00e4`), as a server may quote it back.
      const clean = known === null ? text : text.replace(known, MASK)
      return clean.replace(USER_INFO, `$1${MASK}@`)
    },
  }
  for (const secret of initial) redactor.add(secret)
  return redactor
}

/** Field names whose values are secrets, in any case and with any prefix or suffix (`access_token`, `clientSecret`). */
const SECRET_NAME = String.raw`[\w.-]*(?:passw(?:or)?d|pwd|secret|token|authorization|api[_-]?key|cookie|credential)[\w.-]*`
const SECRET_KEY = new RegExp(`^${SECRET_NAME}$`, 'i')

// In this order: a value masked by one pattern is left alone by the next (they skip `***`).
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // JSON: "access_token": "…" (escaped quotes inside the value included).
  [new RegExp(`("${SECRET_NAME}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${MASK}"`],
  // Header lines: the whole value, scheme and all.
  [/\b((?:proxy-)?authorization|(?:set-)?cookie)(\s*:\s*)(?!\*\*\*)[^\s"',;][^\r\n"',;]*/gi, `$1$2${MASK}`],
  // An authorization scheme and its credentials, wherever else they appear.
  [/\bBearer\s+(?!\*\*\*)[A-Za-z0-9._~+/=-]+/gi, `Bearer ${MASK}`],
  [/\bBasic\s+[A-Za-z0-9+/]{8,}={0,2}/g, `Basic ${MASK}`],
  // Forms, query strings and key=value text: password=…&
  [new RegExp(`\\b(${SECRET_NAME})=(?!\\*\\*\\*)[^&\\s"',;]+`, 'gi'), `$1=${MASK}`],
  // YAML-ish text: password: …
  [new RegExp(`\\b(${SECRET_NAME})(\\s*:\\s*)(?!\\*\\*\\*)(?!")[^\\s,;]+`, 'gi'), `$1$2${MASK}`],
  [USER_INFO, `$1${MASK}@`],
]

/** Masks every value in `text` that names itself a secret (see the patterns above). */
export function redactSecrets(text: string): string {
  let clean = text
  for (const [pattern, replacement] of PATTERNS) clean = clean.replace(pattern, replacement)
  return clean
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key)
}

const MAX_DEPTH = 6

/**
 * A copy of structured data safe to write down: values under a secret-named key become `***`,
 * strings pass through `redactSecrets` and `redactor`, and anything too deep is cut.
 */
export function redactValue(value: unknown, redactor?: Redactor, depth = 0): unknown {
  if (typeof value === 'string') {
    const clean = redactSecrets(value)
    return redactor ? redactor.redact(clean) : clean
  }
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_DEPTH) return '[…]'
  if (value instanceof Error) return redactValue({ name: value.name, message: value.message, stack: value.stack }, redactor, depth)
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactor, depth + 1))
  const copy: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    copy[key] = isSecretKey(key) && inner !== null && inner !== undefined && typeof inner !== 'boolean' ? MASK : redactValue(inner, redactor, depth + 1)
  }
  return copy
}
