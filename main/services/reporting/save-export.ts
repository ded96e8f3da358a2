import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { AppError } from '../errors'
import { throwIfAborted } from '../http/abort'
import { syncFolder } from '../files/atomic'

/** The slice of `fs.promises` a streamed save needs; passed in so a test can fail a step. */
export interface SaveFs {
  open: typeof nodeFs.open
  rename: typeof nodeFs.rename
  rm: typeof nodeFs.rm
}

export interface SaveOptions {
  signal?: AbortSignal
  onProgress?: (bytes: number) => void
  fs?: SaveFs
}

/**
 * Streams a download into `filePath` so that the file is either complete or not there at all:
 * bytes go to a temp file in the same folder (same file system, so the rename is atomic), which
 * is fsynced and renamed over the target only once the stream ended well. On any failure the
 * temp file is removed and an existing file at `filePath` is left as it was.
 */
export async function saveStreamAtomically(source: AsyncIterable<Uint8Array>, filePath: string, options: SaveOptions = {}): Promise<{ bytes: number }> {
  const fs = options.fs ?? nodeFs
  const folder = path.dirname(filePath)
  const temporary = path.join(folder, `.${path.basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`)
  let handle: Awaited<ReturnType<typeof nodeFs.open>>
  try {
    handle = await fs.open(temporary, 'wx')
  } catch (error) {
    // The download holds a connection until it is read or destroyed.
    ;(source as { destroy?: () => void }).destroy?.()
    throw storageError(filePath, error)
  }

  let bytes = 0
  let closed = false
  try {
    for await (const chunk of source) {
      throwIfAborted(options.signal)
      await handle.write(chunk)
      bytes += chunk.byteLength
      options.onProgress?.(bytes)
    }
    throwIfAborted(options.signal)
    await handle.sync()
    closed = true
    await handle.close()
    await fs.rename(temporary, filePath)
  } catch (error) {
    if (!closed) await handle.close().catch(() => undefined)
    await fs.rm(temporary, { force: true }).catch(() => undefined)
    // Failures of the download (network, cancel) are already AppErrors; anything else is the disk.
    throw error instanceof AppError ? error : storageError(filePath, error)
  }
  await syncFolder(folder, fs)
  return { bytes }
}

function storageError(filePath: string, error: unknown): AppError {
  const code = (error as { code?: unknown }).code
  return new AppError(
    'storage',
    `The file ${filePath} could not be written${typeof code === 'string' ? ` (${code})` : ''}. Check that the folder exists, that you may write to it, and that the disk is not full.`,
    {
      path: filePath,
      // The system's code (ENOSPC, EACCES…), so a caller can say what happened without the path.
      errorCode: typeof code === 'string' ? code : null,
      error: error instanceof Error ? error.message : String(error),
    },
  )
}
