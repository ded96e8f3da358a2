import type { Board, ReportDefinition } from '@contract'
import { safeBaseName } from '../files/save-target'
import type { BoardFile, BoardFileMaker, BoardFileRequest } from './board-file-types'
import { gatherTileData, type BoardDataSources } from './board-file-data'
import type { PageFonts } from './board-file-render'
import type { BoardPageHeader } from './board-page-svg'
import type { PrintedTile } from './board-tile-svg'
import { openBoardTiles } from './open-board'

/**
 * A board drawn as a PDF or PNG by main alone, no window: the board read, its tiles opened as
 * `boards:open` opens them (presets read, the board's overrides applied), each tile's result
 * gathered (kept, or run first), the page drawn as SVG, then made into the file.
 */

export interface BoardFileMakerOptions extends BoardDataSources {
  board(name: string): Promise<Board>
  presetDefinition(name: string): Promise<ReportDefinition>
  /** The connection's name for the header (never its address); "No connection" for null. */
  connectionName(profileId: string | null): Promise<string>
  now(): Date
  /** The PDF's fonts (tests pass null for PDFKit's own); the system's when absent. */
  fonts?: PageFonts | null
}

/** The dates the page shows: the one range every tile ran for, or the board's tokens, or each tile's own. */
export function boardDates(board: Board, printed: readonly PrintedTile[]): string {
  const ranges = new Set(printed.flatMap((entry) => (entry.data === null ? [] : [`${entry.data.result.range.start} – ${entry.data.result.range.end}`])))
  if (ranges.size === 1) return [...ranges][0] as string
  if (board.overrides.dates !== null) return `${board.overrides.dates.start} – ${board.overrides.dates.end}`
  return ranges.size === 0 ? 'none (no tile has data)' : "each tile's own"
}

export function createBoardFileMaker(options: BoardFileMakerOptions): BoardFileMaker {
  return {
    async make(request: BoardFileRequest, signal: AbortSignal = new AbortController().signal): Promise<BoardFile> {
      const board = await options.board(request.board)
      const tiles = await openBoardTiles(board, options.presetDefinition)
      const printed = await gatherTileData(tiles, request, options, signal)
      const madeAt = options.now()
      const header: BoardPageHeader = {
        board: board.name,
        dates: boardDates(board, printed),
        connection: await options.connectionName(request.profileId),
        madeAt: madeAt.toISOString(),
      }
      // Loaded on first use: ECharts, resvg and PDFKit stay out of the app's and the command line's start.
      const [{ boardPageSvg }, { pagePdf, pagePng }] = await Promise.all([import('./board-page-svg'), import('./board-file-render')])
      const page = boardPageSvg(header, printed)
      const bytes = request.format === 'png' ? pagePng(page) : await pagePdf(page, { title: board.name, madeAt }, options.fonts)
      const stamps = printed.flatMap((entry) => (entry.data === null ? [] : [entry.data.ranAt])).sort()
      return {
        bytes,
        suggestedName: `${safeBaseName(board.name)} ${madeAt.toISOString().slice(0, 10)}.${request.format}`,
        tiles: printed.length,
        missing: printed.flatMap((entry) => (entry.reason === null ? [] : [{ title: entry.tile.title, reason: entry.reason }])),
        oldestAsOf: stamps[0] ?? null,
      }
    },
  }
}
