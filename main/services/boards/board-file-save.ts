import path from 'node:path'
import type { BoardFileFormat } from '@contract'
import type { AtomicFs } from '../files/atomic'
import type { SaveFileDialog } from '../files/dialogs'
import { chooseSaveTarget, writeChosenFile } from '../files/save-target'
import type { BoardFile, BoardFileMaker } from './board-file-types'

/**
 * `boards:exportFile`: the board drawn from its kept results (the button never waits on the
 * platform), then saved where main's save dialog says (the web host: its exports folder),
 * atomically. Only the file's name and the tiles without data go back to the page.
 */

export interface SavedBoardFile {
  saved: boolean
  fileName: string | null
  missing: BoardFile['missing']
}

const FILTERS: Record<BoardFileFormat, { name: string; extensions: [string] }> = {
  pdf: { name: 'PDF document', extensions: ['pdf'] },
  png: { name: 'PNG image', extensions: ['png'] },
}

export async function saveBoardFile(
  maker: BoardFileMaker,
  dialog: SaveFileDialog,
  request: { board: string; format: BoardFileFormat; profileId: string | null },
  fs?: AtomicFs,
  /** The file is written; its path, for the Exports list. */
  written: (target: string) => Promise<void> = async () => undefined,
): Promise<SavedBoardFile> {
  // Drawn before asking where: a board that cannot be drawn opens no dialog.
  const file = await maker.make({ ...request, refresh: false })
  const target = await chooseSaveTarget(dialog, file.suggestedName, FILTERS[request.format])
  if (target === null) return { saved: false, fileName: null, missing: file.missing }
  await writeChosenFile(target, file.bytes, fs)
  // The file is saved whatever the list makes of it; a history that cannot be written says so itself.
  await written(target).catch(() => undefined)
  return { saved: true, fileName: path.basename(target), missing: file.missing }
}

/** Board files as the app uses them: the maker (schedules, the command line) and Save as… for the page's button. */
export interface BoardPages {
  maker: BoardFileMaker
  saveAs(board: string, format: BoardFileFormat): Promise<SavedBoardFile>
}

/** A board page saved by the user, for the Exports list (exports/jobs.ts `recordFile`). */
export interface SavedBoardPage {
  profileId: string | null
  board: string
  format: BoardFileFormat
  path: string
}

export function createBoardPages(
  maker: BoardFileMaker,
  dialog: SaveFileDialog,
  activeProfileId: () => Promise<string | null>,
  /** Told of each file saved, so it is listed in Exports beside the report files. */
  listSaved: (page: SavedBoardPage) => Promise<void> = async () => undefined,
): BoardPages {
  return {
    maker,
    async saveAs(board, format) {
      const profileId = await activeProfileId()
      const saved = await saveBoardFile(maker, dialog, { board, format, profileId }, undefined, (target) =>
        listSaved({ profileId, board, format, path: target }),
      )
      return saved
    },
  }
}
