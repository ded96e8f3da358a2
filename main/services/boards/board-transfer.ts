import path from 'node:path'
import type { Board, BoardSummary, FileProblem, Preset } from '@contract'
import { AppError } from '../errors'
import { writeFileAtomic } from '../files/atomic'
import type { FileDialogs, FileFilter } from '../files/dialogs'
import { canonicalFile, readPresetDocument } from '../presets/format'
import { fileStem, nameKey } from '../presets/names'
import type { PresetStore } from '../presets/preset-store'
import { readSmallFile } from '../presets/transfer'
import { BOARD_BUNDLE_FORMAT, canonicalBoard, readBoardDocument } from './board-format'
import { boardSummary, type BoardStore } from './board-store'

/**
 * A board's file for a teammate: the board and every preset its tiles use, in one JSON document,
 * through dialogs main opens (the page never names a path). Importing adds the presets first (a
 * taken name gets " (imported)", an identical preset is left as it is) and points the board's
 * tiles at the names they were saved under.
 */
export interface BoardTransfer {
  import(): Promise<{ cancelled: boolean; board: BoardSummary | null; presets: string[]; skipped: FileProblem[] }>
  export(name: string): Promise<{ saved: boolean; fileName: string | null; presets: number }>
}

const BOARD_FILES: FileFilter = { name: 'AdOps Desk boards', extensions: ['json'] }

export function boardBundleText(board: Board, presets: readonly Preset[]): string {
  return `${JSON.stringify({ format: BOARD_BUNDLE_FORMAT, version: 1, board: canonicalBoard(board), presets: presets.map(canonicalFile) }, null, 2)}\n`
}

/** The board and presets in an imported file: a board bundle, or a bare board file. */
export function readBoardImport(text: string): { board: Board; presets: Preset[]; problems: string[] } | { problem: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    return { problem: `it is not valid JSON (${(error as Error).message})` }
  }
  const record = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  const bundled = record !== null && record.format === BOARD_BUNDLE_FORMAT
  const read = readBoardDocument(bundled ? record.board : parsed)
  if (read.state !== 'ok') return { problem: read.reason }
  const presets: Preset[] = []
  const problems: string[] = []
  const items = bundled && Array.isArray(record.presets) ? record.presets : []
  items.forEach((item, index) => {
    const preset = readPresetDocument(item)
    if (preset.state === 'ok') presets.push(preset.preset)
    else problems.push(`preset ${index + 1} could not be read because ${preset.reason}`)
  })
  return { board: read.board, presets, problems }
}

/** The board with each preset tile pointing at the name its preset was saved under. */
export function renameTilePresets(board: Board, savedAs: ReadonlyMap<string, string>): Board {
  return {
    ...board,
    tiles: board.tiles.map((tile) => {
      if (tile.source.kind !== 'preset') return tile
      const name = savedAs.get(nameKey(tile.source.preset))
      return name === undefined ? tile : { ...tile, source: { kind: 'preset', preset: name } }
    }),
  }
}

export function createBoardTransfer(boards: BoardStore, presets: PresetStore, dialogs: FileDialogs): BoardTransfer {
  return {
    async import() {
      const [filePath] = await dialogs.chooseOpenPaths('Import a board', BOARD_FILES)
      if (filePath === undefined) return { cancelled: true, board: null, presets: [], skipped: [] }
      const fileName = path.basename(filePath)
      const text = await readSmallFile(filePath)
      if (typeof text !== 'string') throw new AppError('validation', `${fileName} could not be read because ${text.problem}.`)
      const read = readBoardImport(text)
      if ('problem' in read) throw new AppError('validation', `${fileName} could not be imported because ${read.problem}.`)
      const added = await presets.addAll(read.presets, 'rename')
      const savedAs = new Map(read.presets.map((preset, index) => [nameKey(preset.name), added[index]?.preset.name ?? preset.name]))
      const board = await boards.add(renameTilePresets(read.board, savedAs))
      const skipped = read.problems.map((problem) => ({ fileName, reason: `In ${fileName}, ${problem}.` }))
      return { cancelled: false, board: boardSummary(board), presets: added.map(({ preset }) => preset.name), skipped }
    },

    async export(name) {
      const board = await boards.get(name)
      const used = boardSummary(board).presets
      // A tile whose preset is gone is exported as it is: the teammate sees the same sentence on that tile.
      const found = await Promise.all(used.map((preset) => presets.get(preset).catch(() => null)))
      const carried = found.filter((preset): preset is Preset => preset !== null)
      const target = await dialogs.chooseSavePath(`${fileStem(board.name)}.board.json`, BOARD_FILES)
      if (target === null) return { saved: false, fileName: null, presets: 0 }
      const text = boardBundleText(board, carried)
      try {
        await writeFileAtomic(target, text)
      } catch (error) {
        throw new AppError('storage', `The board could not be written to ${path.basename(target)}. Check that the folder exists and you may write to it.`, {
          error: (error as Error).message,
        })
      }
      return { saved: true, fileName: path.basename(target), presets: carried.length }
    },
  }
}
