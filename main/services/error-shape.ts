import { apiErrorSchema, dependentSchema, errorDetailsSchemaOf, type ApiErrorShape, type ErrorCode, type ErrorDetails } from '@contract'
import { UNSAFE_CHARACTERS } from './http/reasons'

/**
 * What of an error may reach the page. An AppError's details are facts gathered for whoever
 * reads them (a raw body, a file path, a server's words); the page gets only the keys it has a
 * use for, each checked for its type and bounded, and a message that is one clean line of
 * bounded length. A key the page should get must be added here, with its rule.
 */

/**
 * What an AppError knows: the contract's typed details (a key the page reads has one type
 * wherever it is set; null: not known, left out for the page), plus facts kept for logs and
 * tests only (a raw body, a file path), which error-shape.ts keeps from the page.
 */
export type ErrorFacts = { [Key in keyof ErrorDetails]?: ErrorDetails[Key] | null } & { readonly [fact: string]: unknown }

/** An AppError as main holds it, before error-shape.ts makes it an `ApiErrorShape` for the page. */
export interface RawErrorShape {
  code: ErrorCode
  message: string
  details?: ErrorFacts
}

/** A message longer than this is not a sentence any more; ours stay well below it. */
export const MAX_MESSAGE_LENGTH = 1_000
/** The longest text a detail may carry (a reason, an address, a cause). */
export const MAX_DETAIL_TEXT = 500
const MAX_LIST = 50
/** Dependents are listed for the user to act on; past this many the list says nothing more useful. */
const MAX_DEPENDENTS = 1_000

/** One line, no control or invisible characters, at most `max` characters. */
export function cleanText(text: string, max: number): string {
  const flat = text.replace(UNSAFE_CHARACTERS, ' ').replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/**
 * No file path crosses the bridge: an OS error's text names the file it failed on (`ENOENT: no
 * such file or directory, open '/home/me/…'`); the page gets the file's name only.
 */
export function withoutPaths(text: string): string {
  return text.replace(
    /(['"])((?:[A-Za-z]:)?[\\/][^'"]*)\1/g,
    (_quoted, quote: string, filePath: string) => `${quote}${filePath.split(/[\\/]/).pop() ?? ''}${quote}`,
  )
}

type Rule = (value: unknown) => unknown

const text =
  (max = MAX_DETAIL_TEXT): Rule =>
  (value) =>
    typeof value === 'string' ? cleanText(value, max) : undefined
const integer: Rule = (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined)
const nullableNumber: Rule = (value) => (value === null || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined)
const oneOf =
  (...allowed: string[]): Rule =>
  (value) =>
    typeof value === 'string' && allowed.includes(value) ? value : undefined
const textList =
  (max: number): Rule =>
  (value) =>
    Array.isArray(value)
      ? value
          .filter((item): item is string => typeof item === 'string')
          .slice(0, MAX_LIST)
          .map((item) => cleanText(item, max))
      : undefined

/** `{field: [messages]}`: the form shows each message at its field. */
const fieldMap: Rule = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const entries = Object.entries(value as Record<string, unknown>).slice(0, MAX_LIST)
  return Object.fromEntries(entries.map(([field, messages]) => [cleanText(field, 100), (textList(MAX_DETAIL_TEXT)(messages) as string[] | undefined) ?? []]))
}

/** Input issues: `{path, message}` from the bridge's own check, or plain lines from a response check. */
const issueList: Rule = (value) => {
  if (!Array.isArray(value)) return undefined
  return value.slice(0, MAX_LIST).flatMap((issue): unknown[] => {
    if (typeof issue === 'string') return [cleanText(issue, 300)]
    if (issue !== null && typeof issue === 'object') {
      const { path, message } = issue as { path?: unknown; message?: unknown }
      if (typeof path === 'string' && typeof message === 'string') return [{ path: cleanText(path, 200), message: cleanText(message, 300) }]
    }
    return []
  })
}

const dependentList: Rule = (value) => {
  if (!Array.isArray(value)) return undefined
  return value.slice(0, MAX_DEPENDENTS).flatMap((item) => {
    const parsed = dependentSchema.safeParse(item)
    return parsed.success ? [{ ...parsed.data, kind: cleanText(parsed.data.kind, 100), name: cleanText(parsed.data.name, 300) }] : []
  })
}

const entityId: Rule = (value) => (typeof value === 'number' ? integer(value) : text(200)(value))

/**
 * Every detail key the page may receive, from an audit of the AppErrors main builds, and what
 * the renderer reads: `httpStatus`/`apiStatus` (the details line), `fields` and `issues` (the
 * forms), `retryAfterSeconds` (the wait), `dependents` (the delete report), `field`/`part`/
 * `index` (the report builder's controls). The rest help a user or support tell cases apart.
 * Not here on purpose: `body` (a server's raw answer).
 */
const detailRules: Record<string, Rule> = {
  httpStatus: integer,
  apiStatus: text(100),
  retryAfterSeconds: nullableNumber,
  limitBytes: integer,
  deadlineSeconds: integer,
  reason: text(),
  fields: fieldMap,
  issues: issueList,
  field: text(100),
  part: text(100),
  index: integer,
  dependents: dependentList,
  changed: textList(100),
  profileId: text(200),
  id: entityId,
  kind: text(100),
  key: text(200),
  serviceId: text(200),
  method: text(10),
  url: text(),
  next: text(),
  contentType: text(200),
  errorCode: text(100),
  outcome: oneOf('unknown', 'probably_created'),
  cause: text(),
  header: textList(200),
  channel: text(100),
  issue: text(300),
  error: (value) => (typeof value === 'string' ? cleanText(withoutPaths(value), MAX_DETAIL_TEXT) : undefined),
}

/** The detail keys the page may receive; the contract's typed shapes name the same keys (a test keeps them equal). */
export const PUBLIC_DETAIL_KEYS: readonly string[] = Object.keys(detailRules)

/**
 * The error as the page may see it: known detail keys only, each checked and bounded, then
 * typed by the contract's shape for its code (a key of another code's shape is left out); a
 * clean, bounded message.
 */
export function publicErrorShape(shape: RawErrorShape): ApiErrorShape {
  const message = cleanText(shape.message, MAX_MESSAGE_LENGTH)
  if (shape.details === undefined) return apiErrorSchema.parse({ code: shape.code, message })
  const details: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(shape.details)) {
    const rule = Object.hasOwn(detailRules, key) ? detailRules[key] : undefined
    const checked = rule?.(value)
    if (checked !== undefined) details[key] = checked
  }
  const typed = errorDetailsSchemaOf(shape.code).safeParse(details)
  // The rules above only let through values of the contract's types; should one ever slip, the page gets the sentence alone.
  return apiErrorSchema.parse(typed.success ? { code: shape.code, message, details: typed.data } : { code: shape.code, message })
}
