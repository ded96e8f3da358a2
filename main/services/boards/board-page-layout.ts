import { BOARD_GRID, type TilePlace } from '@contract'

/**
 * Where a board's tiles sit on its printed page: the board's 12-column grid as on screen
 * (a column is a twelfth of the page's width less the gaps, a row 64 px like BoardCanvas.vue),
 * under a header. Units are CSS pixels; the PDF scales the page onto paper, the PNG draws it at 2×.
 */
export const BOARD_PAGE = { width: 1280, margin: 24, gap: 10, rowHeight: 64, headerHeight: 76 } as const

export interface PageBox {
  x: number
  y: number
  width: number
  height: number
}

type PageMeasures = typeof BOARD_PAGE

const columnWidth = (page: PageMeasures): number => (page.width - 2 * page.margin - (BOARD_GRID.columns - 1) * page.gap) / BOARD_GRID.columns

/** A tile's box on the page: x and w in columns, y and h in rows, the gaps between cells kept inside a tile that spans them. */
export function tileBox(place: TilePlace, page: PageMeasures = BOARD_PAGE): PageBox {
  const column = columnWidth(page)
  return {
    x: page.margin + place.x * (column + page.gap),
    y: page.margin + page.headerHeight + place.y * (page.rowHeight + page.gap),
    width: place.w * column + (place.w - 1) * page.gap,
    height: place.h * page.rowHeight + (place.h - 1) * page.gap,
  }
}

/** The page's height: down to the lowest tile's bottom edge and a margin (the header alone for a board without tiles). */
export function pageHeight(places: readonly TilePlace[], page: PageMeasures = BOARD_PAGE): number {
  const bottom = places.reduce((lowest, place) => {
    const box = tileBox(place, page)
    return Math.max(lowest, box.y + box.height)
  }, page.margin + page.headerHeight)
  return Math.ceil(bottom + page.margin)
}
