import { BOARD_GRID, type TilePlace } from '@contract'

/**
 * Where tiles sit on the board's grid: moved and resized by keys (arrows move, Shift+arrows
 * resize) or by dragging (cells moved), always kept on the grid, and named for a screen reader.
 */
export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown'
export const isArrowKey = (key: string): key is ArrowKey => key === 'ArrowLeft' || key === 'ArrowRight' || key === 'ArrowUp' || key === 'ArrowDown'

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value))

/** The place moved by whole cells, kept inside the grid at its size. */
export function moveBy(place: TilePlace, columns: number, rows: number): TilePlace {
  return {
    ...place,
    x: clamp(place.x + columns, 0, BOARD_GRID.columns - place.w),
    y: clamp(place.y + rows, 0, BOARD_GRID.rows - 1),
  }
}

/** The place grown or shrunk by whole cells from its top-left corner, at least one cell, never past the grid's edge. */
export function resizeBy(place: TilePlace, columns: number, rows: number): TilePlace {
  return { ...place, w: clamp(place.w + columns, 1, BOARD_GRID.columns - place.x), h: clamp(place.h + rows, 1, BOARD_GRID.maxTileRows) }
}

const STEP: Record<ArrowKey, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }

/** Arrow keys move a tile a cell; with Shift they resize it (Right/Down grow, Left/Up shrink). */
export function placeAfterKey(place: TilePlace, key: ArrowKey, resize: boolean): TilePlace {
  const [columns, rows] = STEP[key]
  return resize ? resizeBy(place, columns, rows) : moveBy(place, columns, rows)
}

/** What a screen reader says for a tile: "Tile Publishers — daily impressions, column 1, row 2, 6 wide, 4 high". */
export function tileLabel(title: string, place: TilePlace): string {
  return `Tile ${title}, column ${place.x + 1}, row ${place.y + 1}, ${place.w} wide, ${place.h} high`
}

const overlaps = (left: TilePlace, right: TilePlace) =>
  left.x < right.x + right.w && right.x < left.x + left.w && left.y < right.y + right.h && right.y < left.y + left.h

/** The first place of this size, row by row, that no tile covers: where a new tile goes. */
export function freePlace(taken: readonly TilePlace[], w = 6, h = 4): TilePlace {
  for (let y = 0; y < BOARD_GRID.rows; y += 1)
    for (let x = 0; x + w <= BOARD_GRID.columns; x += 1) {
      const candidate = { x, y, w, h }
      if (!taken.some((place) => overlaps(place, candidate))) return candidate
    }
  return { x: 0, y: BOARD_GRID.rows - 1, w, h }
}
