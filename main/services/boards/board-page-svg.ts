import { BOARD_PAGE, pageHeight, tileBox } from './board-page-layout'
import { escapeSvg, PRINT_COLORS, svgText } from './board-svg-text'
import { printedMoment, tileSvg, type PrintedTile } from './board-tile-svg'

/** A board as one SVG page: a header (name, dates, connection, when it was made), then each tile at its place on the grid. */

export interface BoardPageHeader {
  board: string
  /** The dates the board ran for, as read: "2026-11-19 – 2026-11-25", or what each tile keeps. */
  dates: string
  /** The connection's name (never its address). */
  connection: string
  madeAt: string
}

export interface BoardPage {
  svg: string
  width: number
  height: number
}

export function boardPageSvg(header: BoardPageHeader, tiles: readonly PrintedTile[]): BoardPage {
  const width = BOARD_PAGE.width
  const height = pageHeight(tiles.map((printed) => printed.tile.place))
  const { margin } = BOARD_PAGE
  const room = width - 2 * margin
  const parts = [
    `<rect x="0" y="0" width="${width}" height="${height}" fill="${PRINT_COLORS.paper}"/>`,
    svgText(header.board, margin, margin + 24, room, { size: 24, weight: 'bold' }),
    svgText(`Dates: ${header.dates}   ·   Connection: ${header.connection}   ·   Made ${printedMoment(header.madeAt)}`, margin, margin + 50, room, {
      size: 12,
      color: PRINT_COLORS.muted,
    }),
    ...tiles.map((printed) => tileSvg(printed, tileBox(printed.tile.place))),
  ]
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<title>${escapeSvg(header.board)}</title>${parts.join('')}</svg>`
  return { svg, width, height }
}
