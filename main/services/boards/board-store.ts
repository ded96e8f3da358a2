import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { normalisePresetName, type Board, type BoardSummary, type FileProblem } from '@contract'
import { lazy } from '../../../common/lazy'
import { AppError } from '../errors'
import { writeFileAtomic } from '../files/atomic'
import { createSerialQueue } from '../files/serial-queue'
import type { Notices } from '../notices'
import { fileNameKey, fileStem, freeName, nameKey } from '../presets/names'
import { createBoardFolder } from './board-folder'
import { boardFileText } from './board-format'

/**
 * Boards, one JSON file each in `<userData>/boards/`, kept as presets are (preset-store.ts): the
 * folder is the truth, names are unique without regard to case, a file is named from its board's
 * name, writes are atomic, a deleted board can be restored until the app quits.
 */
export interface BoardStore {
  list(): Promise<{ boards: BoardSummary[]; refused: FileProblem[] }>
  get(name: string): Promise<Board>
  /** `replace: false` refuses a name that is taken (any case); `true` overwrites that board. */
  save(board: Board, replace: boolean): Promise<Board>
  rename(name: string, newName: string): Promise<Board>
  duplicate(name: string, newName?: string): Promise<Board>
  delete(name: string): Promise<{ name: string }>
  restore(name: string): Promise<Board>
  /** Adds a board read from elsewhere; a taken name becomes "<name> (imported)". */
  add(board: Board): Promise<Board>
}

export const boardsFolder = (userDataDir: string): string => path.join(userDataDir, 'boards')

const byName = lazy(() => new Intl.Collator('en', { sensitivity: 'base', numeric: true }))

export function boardSummary(board: Board): BoardSummary {
  const presets = board.tiles.flatMap((tile) => (tile.source.kind === 'preset' ? [tile.source.preset] : []))
  return { name: board.name, description: board.description, savedAt: board.savedAt, tiles: board.tiles.length, presets: [...new Set(presets)] }
}

export function createBoardStore({ folder, notices, now = () => new Date() }: { folder: string; notices: Pick<Notices, 'add'>; now?: () => Date }): BoardStore {
  const serial = createSerialQueue()
  const view = createBoardFolder({ folder, notices, now })
  const deleted = new Map<string, Board>()

  const notFound = (name: string) =>
    new AppError('not_found', `There is no board named “${name}”. It may have been renamed or deleted; refresh the list.`, { name })
  const taken = (name: string, existing: string) =>
    new AppError('conflict', `A board named “${existing}” already exists. Choose another name, or save over it.`, {
      name,
      fields: { name: ['This name is taken'] },
    })

  function fileNameFor(name: string, onDisk: Set<string>): string {
    const stem = fileStem(name)
    for (let attempt = 1; ; attempt += 1) {
      const candidate = attempt === 1 ? `${stem}.json` : `${stem}-${attempt}.json`
      if (!onDisk.has(fileNameKey(candidate))) return candidate
    }
  }

  /** Writes the board to its file (a new one when `fileName` is null), then removes the file it replaces. */
  async function write(board: Board, fileName: string | null, onDisk: Set<string>, previousFile: string | null = null): Promise<Board> {
    const target = fileName ?? fileNameFor(board.name, onDisk)
    // Built (and read back) before the write: a board its reader would refuse says so and leaves the file as it was.
    const text = boardFileText(board)
    try {
      await writeFileAtomic(path.join(folder, target), text)
    } catch (error) {
      throw new AppError('storage', `The board “${board.name}” could not be saved to disk. Check that the disk is not full and try again.`, {
        error: (error as Error).message,
      })
    }
    await view.wrote(target, board)
    // Written first, removed second: a crash in between leaves both files, never neither.
    if (previousFile !== null && previousFile !== target) {
      await nodeFs.rm(path.join(folder, previousFile), { force: true })
      view.forget(previousFile)
    }
    return board
  }

  const stamped = (board: Board, name = board.name): Board => ({ ...board, name: normalisePresetName(name), savedAt: now().toISOString() })

  return {
    list: () =>
      serial(async () => {
        const { byKey, refused } = await view.current()
        const boards = [...byKey.values()].map(({ board }) => boardSummary(board))
        boards.sort((left, right) => byName().compare(left.name, right.name) || (left.name < right.name ? -1 : 1))
        return { boards, refused }
      }),
    get: (name) =>
      serial(async () => {
        const found = (await view.current()).byKey.get(nameKey(name))
        if (found === undefined) throw notFound(name)
        return found.board
      }),
    save: (board, replace) =>
      serial(async () => {
        const { byKey, onDisk } = await view.current()
        const found = byKey.get(nameKey(board.name))
        if (found !== undefined && !replace) throw taken(board.name, found.board.name)
        return write(stamped(board), found?.fileName ?? null, onDisk)
      }),
    rename: (name, newName) =>
      serial(async () => {
        const { byKey, onDisk } = await view.current()
        const found = byKey.get(nameKey(name))
        if (found === undefined) throw notFound(name)
        const other = byKey.get(nameKey(newName))
        if (other !== undefined && other.fileName !== found.fileName) throw taken(newName, other.board.name)
        // Changing only the case keeps the file (on a case-insensitive disk it is the same file).
        const sameStem = fileNameKey(fileStem(newName)) === fileNameKey(fileStem(found.board.name))
        return write(stamped(found.board, newName), sameStem ? found.fileName : null, onDisk, found.fileName)
      }),
    duplicate: (name, newName) =>
      serial(async () => {
        const { byKey, onDisk } = await view.current()
        const found = byKey.get(nameKey(name))
        if (found === undefined) throw notFound(name)
        const isTaken = (candidate: string) => byKey.has(nameKey(candidate))
        const chosen = newName ?? freeName(`${found.board.name} copy`, isTaken, (attempt) => `${found.board.name} copy ${attempt}`)
        if (isTaken(chosen)) throw taken(chosen, byKey.get(nameKey(chosen))?.board.name ?? chosen)
        return write(stamped(found.board, chosen), null, onDisk)
      }),
    delete: (name) =>
      serial(async () => {
        const found = (await view.current()).byKey.get(nameKey(name))
        if (found === undefined) throw notFound(name)
        await nodeFs.rm(path.join(folder, found.fileName), { force: true })
        view.forget(found.fileName)
        deleted.set(nameKey(found.board.name), found.board)
        return { name: found.board.name }
      }),
    restore: (name) =>
      serial(async () => {
        const board = deleted.get(nameKey(name))
        if (board === undefined) throw new AppError('not_found', `“${name}” was not deleted in this session, so it cannot be restored.`, { name })
        const { byKey, onDisk } = await view.current()
        const other = byKey.get(nameKey(name))
        if (other !== undefined)
          throw new AppError('conflict', `A board named “${other.board.name}” exists again. Rename it first, then restore the deleted one.`, { name })
        deleted.delete(nameKey(name))
        return write(board, null, onDisk)
      }),
    add: (board) =>
      serial(async () => {
        const { byKey, onDisk } = await view.current()
        const isTaken = (candidate: string) => byKey.has(nameKey(candidate))
        const name = freeName(board.name, isTaken, (attempt) => (attempt === 2 ? `${board.name} (imported)` : `${board.name} (imported ${attempt - 1})`))
        return write(stamped(board, name), null, onDisk)
      }),
  }
}
