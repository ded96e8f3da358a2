import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * The slice of `fs.promises` that atomic writes need. Passed in so a test can
 * simulate a crash between the write and the rename.
 */
export interface AtomicFs {
  open: typeof nodeFs.open
  rename: typeof nodeFs.rename
  rm: typeof nodeFs.rm
  mkdir: typeof nodeFs.mkdir
}

/**
 * Write a file so that a reader sees either the old content or the new one, never half:
 * temp file in the same folder (same file system, so rename is atomic), fsync, rename,
 * then fsync the folder so the rename itself survives a power cut.
 */
export async function writeFileAtomic(filePath: string, data: string | Uint8Array, fs: AtomicFs = nodeFs): Promise<void> {
  const folder = path.dirname(filePath)
  await fs.mkdir(folder, { recursive: true })
  const temporary = path.join(folder, `.${path.basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await fs.open(temporary, 'w', 0o600)
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.rename(temporary, filePath)
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => undefined)
    throw error
  }
  await syncFolder(folder, fs)
}

/** Fsyncs a folder so a rename in it survives a power cut; best effort (Windows cannot open a folder for sync). */
export async function syncFolder(folder: string, fs: Pick<AtomicFs, 'open'> = nodeFs): Promise<void> {
  // Not every platform lets a directory be opened for sync (Windows does not); the rename already happened.
  try {
    const handle = await fs.open(folder, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    /* best effort */
  }
}

/** Name for a file moved aside: keeps the original name and says when and why. */
export function asideName(filePath: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-')
  return `${filePath}.corrupt-${stamp}`
}
