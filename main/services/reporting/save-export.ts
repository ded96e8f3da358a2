import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { Writable, type Readable, type WritableOptions } from 'node:stream'
import { pipeline } from 'node:stream/promises'
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
  /** Each chunk, in order, as it arrives (row counting, a progress count): before it waits for the disk. */
  onChunk?: (chunk: Uint8Array) => void
  onProgress?: (bytes: number) => void
  fs?: SaveFs
}

/** A download: a Node stream (the platform's answer), or any source of chunks (a test's). */
export type SaveSource = Readable | (AsyncIterable<Uint8Array> & { destroy?: () => void })

/**
 * Bytes that may wait in memory for the disk. Past this the download waits for the write in
 * flight, so a slow disk bounds memory instead of the network filling it; no write is larger.
 */
export const MAX_PENDING_BYTES = 4 * 1024 * 1024

type FileHandle = Awaited<ReturnType<typeof nodeFs.open>>

/**
 * Streams a download into `filePath` so that the file is either complete or not there at all:
 * bytes go to a temp file in the same folder (same file system, so the rename is atomic), which
 * is fsynced once, at the end, and renamed over the target only once the stream ended well. On
 * any failure the temp file is removed and an existing file at `filePath` is left as it was.
 *
 * The download is piped into a writer (stream/promises pipeline), so the network keeps flowing
 * while the disk writes: chunks that arrive during a write wait in the writer's buffer and go
 * to the disk together in the next write (one writev for many network chunks), and the
 * socket is paused only once MAX_PENDING_BYTES wait. No promise is awaited per chunk on the way
 * (an async generator between the socket and the file cost more CPU than the disk did).
 * `onProgress` follows the bytes written.
 */
export async function saveStreamAtomically(source: SaveSource, filePath: string, options: SaveOptions = {}): Promise<{ bytes: number }> {
  const fs = options.fs ?? nodeFs
  const folder = path.dirname(filePath)
  const temporary = path.join(folder, `.${path.basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`)
  // The download holds a connection until it is read or destroyed.
  const stopDownload = (): void => void source.destroy?.()
  let handle: FileHandle
  try {
    throwIfAborted(options.signal)
    handle = await fs.open(temporary, 'wx')
  } catch (error) {
    stopDownload()
    throw error instanceof AppError ? error : storageError(filePath, error)
  }

  let bytes = 0
  // Set when a write failed: the disk's error is the cause, whatever the stopped download says.
  let diskFailure: { error: unknown } | null = null
  const writeBatch = async (chunks: readonly Uint8Array[]): Promise<void> => {
    for (const batch of batchesOf(chunks)) {
      bytes += await writeAll(handle, batch)
      options.onProgress?.(bytes)
    }
  }
  const settle = (work: Promise<void>, callback: (error?: Error | null) => void): void => {
    work.then(
      () => callback(),
      (error: unknown) => {
        diskFailure = { error }
        callback(error instanceof Error ? error : new Error(String(error)))
      },
    )
  }
  const writer = new ObservedWritable(options.onChunk, {
    highWaterMark: MAX_PENDING_BYTES,
    write: (chunk: Uint8Array, _encoding, callback) => settle(writeBatch([chunk]), callback),
    writev: (entries, callback) => settle(writeBatch(entries.map((entry) => entry.chunk as Uint8Array)), callback),
    // Once, after the last write: the bytes are on the disk before the rename makes them the file.
    final: (callback) => settle(handle.sync(), callback),
  })

  let closed = false
  try {
    try {
      await pipeline(source, writer, ...(options.signal === undefined ? [] : [{ signal: options.signal }]))
    } catch (error) {
      stopDownload()
      if (diskFailure !== null) throw (diskFailure as { error: unknown }).error
      throwIfAborted(options.signal)
      throw error
    }
    throwIfAborted(options.signal)
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

/** A Writable that shows each chunk as it is handed over, before it waits in the buffer for the disk. */
class ObservedWritable extends Writable {
  constructor(
    private readonly see: ((chunk: Uint8Array) => void) | undefined,
    options: WritableOptions,
  ) {
    super(options)
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    if (chunk instanceof Uint8Array && chunk.byteLength > 0) this.see?.(chunk)
    return (super.write as (...parameters: unknown[]) => boolean)(chunk, encoding, callback)
  }
}

/**
 * Writes the chunks in one system call (writev: no copy into one buffer first, which cost more
 * than the write itself), then whatever a short write left, and resolves with the bytes written.
 */
async function writeAll(handle: FileHandle, chunks: Uint8Array[]): Promise<number> {
  const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)
  let written = chunks.length === 1 ? (await handle.write(chunks[0] as Uint8Array)).bytesWritten : (await handle.writev(chunks)).bytesWritten
  while (written < size) {
    const more = (await handle.write(Buffer.concat(chunks, size).subarray(written))).bytesWritten
    // A disk that takes nothing would be asked for ever.
    if (more <= 0) throw Object.assign(new Error('The disk took no bytes of a write.'), { code: 'EIO' })
    written += more
  }
  return size
}

/** Chunks grouped in order into writes of at most MAX_PENDING_BYTES (one chunk larger than that is a write of its own). */
function batchesOf(chunks: readonly Uint8Array[]): Uint8Array[][] {
  const batches: Uint8Array[][] = []
  let current: Uint8Array[] = []
  let size = 0
  for (const chunk of chunks) {
    if (current.length > 0 && size + chunk.byteLength > MAX_PENDING_BYTES) {
      batches.push(current)
      current = []
      size = 0
    }
    current.push(chunk)
    size += chunk.byteLength
  }
  if (current.length > 0) batches.push(current)
  return batches
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
