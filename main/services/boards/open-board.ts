import type { Board, BoardOverrides, BoardTile, OpenTile, ReportDefinition } from '@contract'
import { AppError } from '../errors'

/**
 * A board's tiles as they run now: each preset read, the board's overrides applied. Pure but for
 * `presetOf`, so the rules are tested without a folder.
 */

/** The definition a tile sends: the board's dates and timezone, where the board sets them, over the tile's own. */
export function applyBoardOverrides(definition: ReportDefinition, overrides: BoardOverrides): ReportDefinition {
  return {
    ...definition,
    ...(overrides.dates === null ? {} : { dates: { ...overrides.dates } }),
    ...(overrides.timezone === null ? {} : { timezone: overrides.timezone }),
  }
}

/** What a tile is called when its title is empty: its preset's name, else the report it shows. */
export function tileTitle(tile: BoardTile): string {
  if (tile.title.trim() !== '') return tile.title
  return tile.source.kind === 'preset' ? tile.source.preset : `${tile.source.definition.project} · ${tile.source.definition.report}`
}

/** `presetOf` answers a preset's definition, or throws `not_found` when there is none of that name. */
export async function openBoardTiles(board: Board, presetOf: (name: string) => Promise<ReportDefinition>): Promise<OpenTile[]> {
  return Promise.all(
    board.tiles.map(async (tile): Promise<OpenTile> => {
      const base = { id: tile.id, title: tileTitle(tile), view: tile.view, place: { ...tile.place } }
      if (tile.source.kind === 'definition')
        return { ...base, preset: null, definition: applyBoardOverrides(tile.source.definition, board.overrides), problem: null }
      const preset = tile.source.preset
      try {
        const definition = await presetOf(preset)
        return { ...base, preset, definition: applyBoardOverrides(definition, board.overrides), problem: null }
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'not_found') throw error
        return {
          ...base,
          preset,
          definition: null,
          problem: `The preset “${preset}” no longer exists. Import it again, or remove this tile.`,
        }
      }
    }),
  )
}
