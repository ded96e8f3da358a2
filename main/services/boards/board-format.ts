import { z } from 'zod'
import { boardSchema, hasHiddenCharacters, type Board } from '@contract'

/**
 * A board on disk: one human-readable JSON file, written in one stable shape (keys in the
 * schema's order, two-space indent, a final newline) so a team keeps boards in git and sees small
 * diffs, as presets are (presets/format.ts). `version` is the format; older formats are migrated
 * step by step when read, newer ones are refused with a sentence (never rewritten by an older app).
 *
 * Format history:
 * - 1: the `Board` of preload/contract/boards.ts as it is (the first format).
 */
export const BOARD_FORMAT = 1

/** `version` first, so a reader of the file sees the format before anything else. */
export const boardFileSchema = z.object({ version: z.literal(BOARD_FORMAT), ...boardSchema.shape }).strict()

/** A board and the presets its tiles use, as "Export" writes it. */
export const BOARD_BUNDLE_FORMAT = 'adopsdesk-board'

/** One step per format, from the format it reads to the next one. Empty while format 1 is the only one. */
export type BoardMigrations = Readonly<Record<number, (raw: Record<string, unknown>) => unknown>>
export const boardMigrations: BoardMigrations = {}

/** `newer` and `hidden` are left where they are (listed as refused); `invalid` is moved aside. */
export type BoardRead =
  { state: 'ok'; board: Board } | { state: 'newer'; reason: string } | { state: 'hidden'; reason: string } | { state: 'invalid'; reason: string }

/**
 * A parsed board document of any format, migrated to the current one and checked. Reasons end a
 * sentence that starts "…could not be read because". `migrations` is passed in by tests only.
 */
export function readBoardDocument(parsed: unknown, migrations: BoardMigrations = boardMigrations, format = BOARD_FORMAT): BoardRead {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { state: 'invalid', reason: 'it does not hold a JSON object' }
  let current = parsed as Record<string, unknown>
  let version = current.version
  if (typeof version !== 'number' || !Number.isInteger(version)) return { state: 'invalid', reason: 'it has no format "version"' }
  if (version > format) {
    return {
      state: 'newer',
      reason: `it was saved by a newer version of AdOps Desk (board format ${version}; this version reads up to ${format}). Update AdOps Desk to open it`,
    }
  }
  while (version < format) {
    const step = migrations[version]
    if (step === undefined) return { state: 'invalid', reason: `its format ${version} is not one AdOps Desk ever wrote` }
    try {
      const next = step(current)
      if (typeof next !== 'object' || next === null) throw new Error('the migration gave no object')
      current = next as Record<string, unknown>
    } catch (error) {
      return { state: 'invalid', reason: `it could not be brought up to date from format ${version} (${firstIssue(error)})` }
    }
    version += 1
  }
  // As with presets: a teammate's file whose name hides characters is left in place with a sentence, not moved.
  if (typeof current.name === 'string' && hasHiddenCharacters(current.name)) {
    return {
      state: 'hidden',
      reason: 'its name holds control or invisible characters (tabs, line breaks, zero-width spaces, text-direction marks). Retype the name in the file',
    }
  }
  const checked = boardFileSchema.safeParse({ ...current, version: format })
  if (!checked.success) return { state: 'invalid', reason: `its content is not a board: ${describeIssue(checked.error)}` }
  const { version: _format, ...board } = checked.data
  return { state: 'ok', board }
}

function describeIssue(error: z.ZodError): string {
  const first = error.issues[0]
  if (first === undefined) return 'invalid'
  return `${first.path.length > 0 ? `${first.path.join('.')}: ` : ''}${first.message}`
}

function firstIssue(error: unknown): string {
  return error instanceof z.ZodError ? describeIssue(error) : error instanceof Error ? error.message : String(error)
}

/** Parsing through the schema puts every key in its declared order, whatever order the caller built it in. */
export function canonicalBoard(board: Board): z.infer<typeof boardFileSchema> {
  const { name, description, savedAt, overrides, tiles } = boardSchema.parse(board)
  return boardFileSchema.parse({ version: BOARD_FORMAT, name, description, savedAt, overrides, tiles })
}

/** The file's text: the current format, keys in a stable order, 2-space indent, final newline. */
export function boardFileText(board: Board): string {
  return `${JSON.stringify(canonicalBoard(board), null, 2)}\n`
}
