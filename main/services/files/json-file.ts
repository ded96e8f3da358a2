import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import type { z } from 'zod'
import { asideName, MAX_FILE_NAME_BYTES } from './atomic'

export type JsonFileRead<T> =
  | { state: 'missing' }
  | { state: 'ok'; value: T }
  /** The file could not be parsed or did not match its schema; it was moved to `movedTo`. */
  | { state: 'corrupt'; movedTo: string; reason: string }

/** The parsed JSON of a file written by an older version, as `migrate` receives it. */
export type OlderDocument = { version: number } & Record<string, unknown>

/**
 * How a versioned file catches up: a file whose `version` is below `version` goes through
 * `migrate` before the schema check, so old files keep working after the format changes.
 */
export interface Versioning {
  /** The format version this code writes. */
  version: number
  /**
   * Turns an older file's parsed JSON into the current shape; what it returns is then checked
   * against the schema. Without it (a format with no older version in files of this kind), an
   * older version is left for the schema to refuse.
   */
  migrate?(raw: OlderDocument): unknown
}

/**
 * Read a JSON file against a schema. A file that is not JSON or does not match is moved
 * aside (never deleted, never overwritten) so the user can recover it, and the caller is
 * told so it can report it and start with what it has.
 */
export async function readJsonFile<S extends z.ZodType>(
  filePath: string,
  schema: S,
  now: () => Date = () => new Date(),
  versioning?: Versioning,
): Promise<JsonFileRead<z.output<S>>> {
  let raw: string
  try {
    raw = await fs.readFile(filePath, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' }
    return moveAside(filePath, `it could not be read (${(error as Error).message})`, now())
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    return moveAside(filePath, `it is not valid JSON (${(error as Error).message})`, now())
  }
  const judged = judgeDocument(parsed, schema, versioning)
  return 'problem' in judged ? moveAside(filePath, judged.problem, now()) : { state: 'ok', value: judged.value }
}

/**
 * A parsed document brought up to date (with `versioning`) and checked against its schema, or
 * the sentence saying why it cannot be used: what `readJsonFile` does once it has the JSON, for
 * files that are not plain JSON (a kept result's header).
 */
export function judgeDocument<S extends z.ZodType>(parsed: unknown, schema: S, versioning?: Versioning): { value: z.output<S> } | { problem: string } {
  let current = parsed
  if (versioning) {
    const upgraded = upgrade(parsed, versioning)
    if ('problem' in upgraded) return upgraded
    current = upgraded.value
  }
  const checked = schema.safeParse(current)
  if (!checked.success) {
    const first = checked.error.issues[0]
    const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : ''
    return { problem: `its content is not what AdOps Desk expects${where}: ${first?.message ?? 'invalid'}` }
  }
  return { value: checked.data }
}

/** A file of an older version migrated, of the current one as it is; one without a version is left for the schema to judge. */
function upgrade(parsed: unknown, { version, migrate }: Versioning): { value: unknown } | { problem: string } {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { value: parsed }
  const found = (parsed as Record<string, unknown>).version
  if (typeof found !== 'number' || found === version) return { value: parsed }
  if (found > version) return { problem: `it was saved by a newer version of AdOps Desk (format ${found}; this version reads up to ${version})` }
  if (migrate === undefined) return { value: parsed }
  try {
    return { value: migrate(parsed as OlderDocument) }
  } catch (error) {
    return { problem: `it could not be brought up to date from format ${found} (${(error as Error).message})` }
  }
}

/** Moves a file that cannot be used aside (never deleted, never overwritten), with the reason, for the caller to report. */
export async function moveAside(filePath: string, reason: string, now: Date): Promise<JsonFileRead<never>> {
  const target = asideName(filePath, now)
  await fs.rename(filePath, target)
  return { state: 'corrupt', movedTo: target, reason }
}

/**
 * A safe name's bound (it is ASCII, so bytes): with `.jsonl` after it and a file moved aside's
 * `.corrupt-<time>` (33) after that, or an atomic write's temp around it, within 255.
 */
export const SAFE_NAME_BYTES = MAX_FILE_NAME_BYTES - '.jsonl'.length - '.corrupt-2026-12-07T10-00-00-000Z'.length
/** Hex digits of the digest that tells two long ids with the same start apart. */
const DIGEST_DIGITS = 16

/**
 * An id (a profile's, say) as one safe file or folder name, whatever characters it holds: no
 * separators, no "..". Percent-encoded (a CJK character takes 9 bytes), so a long id is cut
 * between characters and ends in `.` and a digest of the whole id: a raw `.` is never in the
 * encoding itself, so no other id can make that name, and `idOfSafeFileName` answers null for it.
 */
export function safeFileName(id: string): string {
  const encoded = encodeSafely(id)
  if (encoded.length <= SAFE_NAME_BYTES) return encoded
  const room = SAFE_NAME_BYTES - 1 - DIGEST_DIGITS
  let start = ''
  for (const character of id) {
    const next = encodeSafely(character)
    if (start.length + next.length > room) break
    start += next
  }
  return `${start}.${createHash('sha256').update(id).digest('hex').slice(0, DIGEST_DIGITS)}`
}

const encodeSafely = (text: string): string => encodeURIComponent(text).replace(/\./g, '%2E')

/** The id a `safeFileName` was made from, or null for a name it cannot have made (a temp file, a file put there by hand) or cannot tell the id of (a long id's cut name). */
export function idOfSafeFileName(name: string): string | null {
  try {
    const id = decodeURIComponent(name)
    return safeFileName(id) === name ? id : null
  } catch {
    return null
  }
}
