/**
 * A run's failure as the ledger tells it (a sentence that says what to do, and the error code that
 * decides whether it is tried again), and the folder check every written file goes through first.
 */
import { promises as nodeFs, constants as fsConstants } from 'node:fs'
import path from 'node:path'
import { isAppError } from '../errors'

export class RunFailure extends Error {
  constructor(
    readonly sentence: string,
    readonly code: string | null,
  ) {
    super(sentence)
  }
}

/** The schedule's folder is there and writable; otherwise a sentence naming it (by its name only). */
export async function checkFolder(folder: string, fs: Pick<typeof nodeFs, 'access' | 'stat'> = nodeFs): Promise<void> {
  const name = path.basename(folder)
  const stat = await fs.stat(folder).catch(() => null)
  if (stat === null || !stat.isDirectory())
    throw new RunFailure(`The folder ${name} is gone, so no file was written. Choose another folder for this schedule.`, 'storage')
  try {
    await fs.access(folder, fsConstants.W_OK)
  } catch {
    throw new RunFailure(
      `AdOps Desk may not write in the folder ${name} (it is read-only), so no file was written. Choose another folder for this schedule.`,
      'storage',
    )
  }
}

/**
 * Why the data folder refused a lock or a ledger line, in words (the error's code, never its path):
 * what a full disk, a read-only or vanished data folder, or a file where a folder should be answer.
 */
export function storageReason(error: unknown): string {
  // The ledger's own errors are sentences already; the system's code rides in their details.
  const code = isAppError(error) ? error.details?.errorCode : (error as NodeJS.ErrnoException | null)?.code
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
    case 'EFBIG':
      return 'the disk is full, or a file there reached its size limit'
    case 'EROFS':
    case 'EACCES':
    case 'EPERM':
      return 'the data folder is read-only, or its permissions changed'
    case 'EEXIST':
    case 'ENOTDIR':
    case 'EISDIR':
      return 'a file is where a folder should be'
    case 'ENOENT':
      return 'the data folder is gone (a network home that went away, or a removed disk)'
    default:
      return 'the file system refused it'
  }
}

const WHAT_TO_DO = 'Free some space on the disk, or check that the data folder can be written, then run it again.'

/** The ledger line of a run that could not take its lock: it did not start, and no platform call was made. */
export const lockFailureSentence = (error: unknown): string =>
  `This run did not start: AdOps Desk could not take the schedule's run lock in its data folder (${storageReason(error)}). ${WHAT_TO_DO}`

/** A run's sentence once its ledger line could not be written: what the run did, then why it is not recorded. */
export function unrecordedSentence(run: { fileName: string | null; error: string | null }, error: unknown): string {
  const done = run.error ?? (run.fileName === null ? 'The run itself went well.' : `The file ${run.fileName} was written.`)
  return `${done} Its line could not be written to the run ledger (${storageReason(error)}), so AdOps Desk waits a while before running this schedule again. ${WHAT_TO_DO}`
}
