import { z } from 'zod'
import { boardSchema, type Board } from '@contract'
import { unreadableWrite } from '../files/checked-write'
import { describeIssue, migrateDocument, type DocumentMigrations, type DocumentRefusal } from '../files/versioned-document'

/**
 * A board on disk: one human-readable JSON file, written in one stable shape (keys in the
 * schema's order, two-space indent, a final newline) so a team keeps boards in git and sees small
 * diffs, as presets are (presets/format.ts). `version` is the format; older formats are migrated
 * step by step when read, newer ones are refused with a sentence (never rewritten by an older app).
 *
 * Format history:
 * - 1: the `Board` of preload/contract/boards.ts as it is (the first format).
 * - 2: `overrides.profileId`, the connection every tile runs against (null: the active one). A
 *   new format, not an optional key, so an older app leaves such a file alone (refused as newer)
 *   instead of moving it aside as a board it cannot read.
 */
export const BOARD_FORMAT = 2

/** `version` first, so a reader of the file sees the format before anything else. */
export const boardFileSchema = z.object({ version: z.literal(BOARD_FORMAT), ...boardSchema.shape }).strict()

/** A board and the presets its tiles use, as "Export" writes it. */
export const BOARD_BUNDLE_FORMAT = 'adopsdesk-board'

/** One step per format, from the format it reads to the next one. */
export type BoardMigrations = DocumentMigrations
export const boardMigrations: BoardMigrations = {
  // 1 → 2: a board of format 1 ran on the active connection.
  1: (raw) => {
    const overrides = raw.overrides
    if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) return raw
    return { ...raw, overrides: { ...overrides, profileId: null } }
  },
}

/** `newer` and `hidden` are left where they are (listed as refused); `invalid` is moved aside. */
export type BoardRead = { state: 'ok'; board: Board } | DocumentRefusal

/**
 * A parsed board document of any format, migrated to the current one and checked. Reasons end a
 * sentence that starts "…could not be read because". `migrations` is passed in by tests only.
 */
export function readBoardDocument(parsed: unknown, migrations: BoardMigrations = boardMigrations, format = BOARD_FORMAT): BoardRead {
  const migrated = migrateDocument(parsed, { format, migrations, noun: 'board' })
  if (migrated.state !== 'migrated') return migrated
  const checked = boardFileSchema.safeParse({ ...migrated.document, version: format })
  if (!checked.success) return { state: 'invalid', reason: `its content is not a board: ${describeIssue(checked.error)}` }
  const { version: _format, ...board } = checked.data
  return { state: 'ok', board }
}

/** Parsing through the schema puts every key in its declared order, whatever order the caller built it in. */
export function canonicalBoard(board: Board): z.infer<typeof boardFileSchema> {
  const refused = (error: z.ZodError) => unreadableWrite(`The board “${board.name}”`, `its content is not a board: ${describeIssue(error)}`)
  const checked = boardSchema.safeParse(board)
  if (!checked.success) throw refused(checked.error)
  const { name, description, savedAt, overrides, tiles } = checked.data
  // The connection is always written (null: the active one), so the file says it plainly.
  const { dates, timezone, profileId = null } = overrides
  const file = boardFileSchema.safeParse({ version: BOARD_FORMAT, name, description, savedAt, overrides: { dates, timezone, profileId }, tiles })
  if (!file.success) throw refused(file.error)
  return file.data
}

/** The file's text: the current format, keys in a stable order, 2-space indent, final newline; read back before it is written. */
export function boardFileText(board: Board): string {
  const text = `${JSON.stringify(canonicalBoard(board), null, 2)}\n`
  const readBack = readBoardDocument(JSON.parse(text))
  if (readBack.state !== 'ok') throw unreadableWrite(`The board “${board.name}”`, readBack.reason)
  return text
}
