/**
 * A run's failure as the ledger tells it (a sentence that says what to do, and the error code that
 * decides whether it is tried again), and the folder check every written file goes through first.
 */
import { promises as nodeFs, constants as fsConstants } from 'node:fs'
import path from 'node:path'

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
