/**
 * A board drawn as one file (PDF or PNG) by main alone, with no window: what the Export as PDF/PNG
 * button, `adops-desk boards export` and a scheduled board run all call. Written first so the
 * drawing (board files) and the schedules that use it can be built side by side.
 */
import type { BoardFileFormat } from '@contract'

export interface BoardFileRequest {
  /** The board's name, as in its file. */
  board: string
  format: BoardFileFormat
  /**
   * The connection the tiles run against when `refresh` is true (a board names none by itself;
   * the board's own override, when it has one, wins over this).
   */
  profileId: string | null
  /**
   * true: run every tile against the platform first (the command line, a schedule); false: draw
   * each tile from its kept result, stamped "as of" (the app's button, and the fallback offline).
   */
  refresh: boolean
}

export interface BoardFile {
  bytes: Uint8Array
  /** A file name to offer: the board's name and the day, "Morning delivery 2026-11-26.pdf". */
  suggestedName: string
  tiles: number
  /** Tiles drawn with "No data" (no kept result, a failed run, a deleted preset), each with why. */
  missing: { title: string; reason: string }[]
  /** The oldest "as of" stamp among the tiles drawn (ISO 8601); null when none had data. */
  oldestAsOf: string | null
}

export interface BoardFileMaker {
  make(request: BoardFileRequest, signal?: AbortSignal): Promise<BoardFile>
}
