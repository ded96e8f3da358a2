import type { Notices } from '../notices'
import type { FileDialogs } from '../files/dialogs'
import type { PresetStore } from '../presets/preset-store'
import { boardsFolder, createBoardStore, type BoardStore } from './board-store'
import { createBoardTransfer, type BoardTransfer } from './board-transfer'

/** Boards (files beside the presets) and their import and export with the presets they use, as the app builds them. */
export interface AppBoards {
  store: BoardStore
  files: BoardTransfer
}

export function createAppBoards(options: {
  userDataDir: string
  notices: Pick<Notices, 'add'>
  now: () => Date
  presets: PresetStore
  dialogs: FileDialogs
}): AppBoards {
  const store = createBoardStore({ folder: boardsFolder(options.userDataDir), notices: options.notices, now: options.now })
  return { store, files: createBoardTransfer(store, options.presets, options.dialogs) }
}
