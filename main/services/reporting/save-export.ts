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
 * Bytes that may wait in memory for the disk. Past this the download waits for the write in
 * flight, so a slow disk bounds memory instead of the network filling it.
 */
export const MAX_PENDING_BYTES = 4 * 1024 * 1024

/**
 * Streams a download into `filePath` so that the file is either complete or not there at all:
 * bytes go to a temp file in the same folder (same file system, so the rename is atomic), which
 * is fsynced and renamed over the target only once the stream ended well. On any failure the
 * temp file is removed and an existing file at `filePath` is left as it was.
 *
 * The download is read while the disk writes: chunks that arrive during a write are written
 * together by the next one (one system call for many small network chunks), instead of each
 * chunk waiting for its own write before the next is read. `onProgress` follows the bytes written.
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
  const pending: Uint8Array[] = []
  let pendingBytes = 0
  // The write in flight (it never rejects: a failure is kept in `failed` and thrown by the loop).
  let writing: Promise<void> | null = null
  let failed: { error: unknown } | null = null
  const writePending = async (): Promise<void> => {
    while (pending.length > 0 && failed === null) {
      const batch = pending.length === 1 ? (pending[0] as Uint8Array) : Buffer.concat(pending, pendingBytes)
      pending.length = 0
      pendingBytes = 0
      await handle.write(batch)
      bytes += batch.byteLength
      options.onProgress?.(bytes)
    }
  }
  const startWriting = (): void => {
    writing = writePending().then(
      () => void (writing = null),
      (error: unknown) => {
        failed = { error }
        writing = null
        // Stop reading: the loop below then throws the disk's error, not a network one.
        ;(source as { destroy?: () => void }).destroy?.()
      },
    )
  }
  const rethrowFailure = (): void => {
    if (failed !== null) throw failed.error
  }
  try {
    try {
      for await (const chunk of source) {
        rethrowFailure()
        throwIfAborted(options.signal)
        if (chunk.byteLength === 0) continue
        pending.push(chunk)
        pendingBytes += chunk.byteLength
        if (writing === null) startWriting()
        else if (pendingBytes >= MAX_PENDING_BYTES) await writing
      }
    } catch (error) {
      // A write that failed first is the cause, whatever the stopped download says.
      rethrowFailure()
      throw error
    }
    await writing
    rethrowFailure()
    throwIfAborted(options.signal)
    // Chunks that came after the last write started.
    await writePending()
    await handle.sync()
    closed = true
    await handle.close()
    await fs.rename(temporary, filePath)
  } catch (error) {
    // No write may still run when the temp file is closed and removed.
    await writing
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
