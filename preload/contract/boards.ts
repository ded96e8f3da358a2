/**
 * Boards: the reports a team looks at every morning on one screen. A board is a named set of
 * tiles, each a preset (by name) or an inline definition, drawn as one view at a place on a
 * grid; board-wide overrides (dates, timezone) apply to every tile's request. Like a preset, a
 * board names no connection by itself: it runs against the one active when it is opened, unless
 * its overrides name one.
 *
 * No file path crosses the bridge: import and export open main's own dialogs.
 */
import { z } from 'zod'
import { fileProblemSchema, presetNameSchema } from './presets'
import { dateTokenSchema, reportDefinitionSchema, timezoneRuleSchema } from './report-definition'
import { channel, empty, profileRef } from './primitives'

/** The grid a board is laid out on: 12 columns, rows as many as the tiles need (bounded). */
export const BOARD_GRID = { columns: 12, rows: 96, maxTileRows: 24, maxTiles: 48 } as const

/** What a board can be exported as, by main alone (main/services/boards/board-file-types.ts). */
export const boardFileFormats = ['pdf', 'png'] as const
export type BoardFileFormat = (typeof boardFileFormats)[number]

/**
 * How a tile draws its report; `pivot` draws the preset's pivot layout (the Pivot tab's), read-only.
 * A board file naming a view this version does not know is refused with a sentence, never rewritten.
 */
export const boardTileViews = ['chart', 'table', 'number', 'audience', 'pivot'] as const
export type BoardTileView = (typeof boardTileViews)[number]

export const tilePlaceSchema = z
  .object({
    x: z
      .number()
      .int()
      .min(0)
      .max(BOARD_GRID.columns - 1),
    y: z
      .number()
      .int()
      .min(0)
      .max(BOARD_GRID.rows - 1),
    w: z.number().int().min(1).max(BOARD_GRID.columns),
    h: z.number().int().min(1).max(BOARD_GRID.maxTileRows),
  })
  .strict()
  .refine((place) => place.x + place.w <= BOARD_GRID.columns, `A tile must fit within the board's ${BOARD_GRID.columns} columns`)
export type TilePlace = z.infer<typeof tilePlaceSchema>

export const tileSourceSchema = z.discriminatedUnion('kind', [
  /** A saved preset, by name: the tile follows the preset as the team changes it. */
  z.object({ kind: z.literal('preset'), preset: presetNameSchema }).strict(),
  /** A definition kept in the board itself. */
  z.object({ kind: z.literal('definition'), definition: reportDefinitionSchema }).strict(),
])
export type TileSource = z.infer<typeof tileSourceSchema>

export const boardTileSchema = z
  .object({
    /** Stable within the board (the page keys tiles and their runs by it). */
    id: z.string().trim().min(1).max(40),
    /** Shown on the tile; empty: the preset's name (or the report's, for an inline definition). */
    title: z.string().max(200),
    source: tileSourceSchema,
    view: z.enum(boardTileViews),
    place: tilePlaceSchema,
  })
  .strict()
export type BoardTile = z.infer<typeof boardTileSchema>

export const boardOverridesSchema = z
  .object({
    /** The board's dates for every tile ("last 7 days"); null: each tile keeps its own. */
    dates: z.object({ start: dateTokenSchema, end: dateTokenSchema }).strict().nullable(),
    /** The board's timezone for every tile; null: each tile keeps its own. */
    timezone: timezoneRuleSchema.nullable(),
    /**
     * The connection every tile runs against; null (or absent, in code written before it): the one
     * active when the board is opened. The board file always writes it (format 2).
     */
    profileId: profileRef.nullable().optional(),
  })
  .strict()
export type BoardOverrides = z.infer<typeof boardOverridesSchema>

/**
 * The connection a board's tiles run against: the board's own when its overrides name one, else
 * the one given (the active connection in the app, a schedule's or the command line's elsewhere).
 */
export function boardConnection(overrides: BoardOverrides, fallback: string | null): string | null {
  return overrides.profileId ?? fallback
}

export const boardSchema = z
  .object({
    name: presetNameSchema,
    description: z.string().max(2_000),
    /** When it was last saved, ISO 8601. */
    savedAt: z.string().max(40),
    overrides: boardOverridesSchema,
    tiles: z
      .array(boardTileSchema)
      .max(BOARD_GRID.maxTiles)
      .refine((tiles) => new Set(tiles.map((tile) => tile.id)).size === tiles.length, 'Two tiles share an id'),
  })
  .strict()
export type Board = z.infer<typeof boardSchema>

export const boardSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  savedAt: z.string(),
  tiles: z.number(),
  /** The presets its tiles use, for search. */
  presets: z.array(z.string()),
})
export type BoardSummary = z.infer<typeof boardSummarySchema>

/** A tile as it runs now: the definition with the board's overrides applied, or why it cannot run. */
export const openTileSchema = z.object({
  id: z.string(),
  title: z.string(),
  view: z.enum(boardTileViews),
  place: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }),
  /** The preset it shows (its kept results and alerts are filed under it); null for an inline definition. */
  preset: z.string().nullable(),
  definition: reportDefinitionSchema.nullable(),
  /** Why it cannot run (its preset was deleted…), as a sentence; null when it can. */
  problem: z.string().nullable(),
})
export type OpenTile = z.infer<typeof openTileSchema>

const nameInput = z.object({ name: presetNameSchema }).strict()

export const boardsChannels = {
  /** Every board in the boards folder, by name; files of a newer format are listed under `refused`, untouched. */
  list: channel(empty, z.object({ boards: z.array(boardSummarySchema), refused: z.array(fileProblemSchema) })),
  get: channel(nameInput, boardSchema),
  /** `replace: false` refuses a name that is taken (any case); `true` overwrites that board. */
  save: channel(z.object({ board: boardSchema, replace: z.boolean() }).strict(), boardSchema),
  rename: channel(z.object({ name: presetNameSchema, newName: presetNameSchema }).strict(), boardSchema),
  /** Without `newName`: "<name> copy", "<name> copy 2"… */
  duplicate: channel(z.object({ name: presetNameSchema, newName: presetNameSchema.optional() }).strict(), boardSchema),
  /** The deleted board stays restorable until the app quits. */
  delete: channel(nameInput, z.object({ name: z.string() })),
  restore: channel(nameInput, boardSchema),
  /** The board with each tile's definition as it runs now (presets read, overrides applied). */
  open: channel(nameInput, z.object({ board: boardSchema, tiles: z.array(openTileSchema) })),
  /** Main asks which file; the board is added with the presets it carries (a taken name gets " (imported)"). */
  import: channel(
    empty,
    z.object({ cancelled: z.boolean(), board: boardSummarySchema.nullable(), presets: z.array(z.string()), skipped: z.array(fileProblemSchema) }),
  ),
  /** Main asks where to save; the file holds the board and every preset its tiles use. */
  export: channel(nameInput, z.object({ saved: z.boolean(), fileName: z.string().nullable(), presets: z.number() })),
  /**
   * The board drawn by main as a PDF or PNG page from its kept results, on the active connection;
   * main asks where to save. `missing`: the tiles drawn without data, each with why.
   */
  exportFile: channel(
    z.object({ name: presetNameSchema, format: z.enum(boardFileFormats) }).strict(),
    z.object({
      saved: z.boolean(),
      fileName: z.string().nullable(),
      missing: z.array(z.object({ title: z.string(), reason: z.string() })),
    }),
  ),
} as const
