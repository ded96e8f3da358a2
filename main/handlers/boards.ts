import type { Services } from '../services'
import { openBoardTiles } from '../services/boards/open-board'
import type { HandlersFor } from './types'

/** Boards and their files: thin calls into the services. */
export function boardHandlers({ boards: { store: boards, files: boardFiles }, presets, boardPages }: Services): HandlersFor<'boards'> {
  return {
    'boards:list': () => boards.list(),
    'boards:get': ({ name }) => boards.get(name),
    'boards:save': ({ board, replace }) => boards.save(board, replace),
    'boards:rename': ({ name, newName }) => boards.rename(name, newName),
    'boards:duplicate': ({ name, newName }) => boards.duplicate(name, newName),
    'boards:delete': ({ name }) => boards.delete(name),
    'boards:restore': ({ name }) => boards.restore(name),
    'boards:open': async ({ name }) => {
      const board = await boards.get(name)
      return { board, tiles: await openBoardTiles(board, async (preset) => (await presets.get(preset)).definition) }
    },
    'boards:import': () => boardFiles.import(),
    'boards:export': ({ name }) => boardFiles.export(name),
    'boards:exportFile': ({ name, format }) => boardPages.saveAs(name, format),
  }
}
