/**
 * A board schedule's action: the board drawn as one PDF or PNG file by the board file maker (its
 * tiles run against the schedule's connection first), written atomically into the schedule's
 * folder under its file-name pattern. A board renamed or deleted fails with a sentence; tiles
 * drawn without data are listed for the ledger, the file is still written.
 */
import path from 'node:path'
import type { BoardFileFormat } from '@contract'
import type { BoardFile, BoardFileMaker } from '../boards/board-file-types'
import { isAppError } from '../errors'
import { writeFileAtomic, type AtomicFs } from '../files/atomic'
import { safeBaseName, withExtension } from '../files/save-target'
import { RunFailure } from './run-failure'

export interface BoardRun {
  board: string
  format: BoardFileFormat
  profileId: string
  fileNamePattern: string
  /** The day of the run (YYYY-MM-DD), for `{date}`. */
  runDate: string
}

export interface BoardRunDependencies {
  /** Throws `not_found` when there is no board of that name. */
  boardExists(name: string): Promise<void>
  boardFiles: BoardFileMaker | null
  /** The schedule's folder, checked (throws a RunFailure when gone or read-only). */
  folderOf(): Promise<string>
  fs?: AtomicFs
}

const deleted = (board: string) =>
  new RunFailure(
    `The board "${board}" was renamed or deleted, so this schedule has nothing to draw. Choose the board again in the schedule, or delete the schedule.`,
    'not_found',
  )

/** A board file's name: `{preset}` is the board's name, `{date}` the run's day (a board has no one range). */
export function boardFileNameOf(pattern: string, board: string, runDate: string, format: BoardFileFormat): string {
  const named = pattern.replace(/\{(preset|date)\}/g, (_token, key: string) => (key === 'preset' ? board : runDate))
  return withExtension(safeBaseName(named), format)
}

export async function writeBoardFile(run: BoardRun, dependencies: BoardRunDependencies): Promise<{ fileName: string; missing: BoardFile['missing'] }> {
  try {
    await dependencies.boardExists(run.board)
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') throw deleted(run.board)
    throw error
  }
  if (dependencies.boardFiles === null)
    throw new RunFailure('This version of AdOps Desk cannot draw boards as files yet, so nothing was written. Update AdOps Desk.', null)
  const folder = await dependencies.folderOf()
  let file: BoardFile
  try {
    file = await dependencies.boardFiles.make({ board: run.board, format: run.format, profileId: run.profileId, refresh: true })
  } catch (error) {
    // Deleted between the check and the drawing: the same sentence.
    if (isAppError(error) && error.code === 'not_found') throw deleted(run.board)
    throw error
  }
  const fileName = boardFileNameOf(run.fileNamePattern, run.board, run.runDate, run.format)
  await writeFileAtomic(path.join(folder, fileName), file.bytes, dependencies.fs)
  return { fileName, missing: file.missing.map(({ title, reason }) => ({ title, reason })) }
}
