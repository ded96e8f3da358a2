import { promises as fs } from 'node:fs'
import path from 'node:path'

/**
 * The log on disk: lines appended to `main.log` in the log folder, which is renamed to
 * `main.1.log` (and that one to `main.2.log`…) once it would pass `maxBytes`, so the folder
 * never holds more than `files` files of about `maxBytes` each. Writing never throws to the
 * caller: a log that cannot be written must not break what was being logged.
 */
export interface LogFile {
  readonly folder: string
  /** Queues a line (with its newline); lines land in call order. */
  append(line: string): void
  /** Resolves once every line appended so far is on disk (or was given up on). */
  flush(): Promise<void>
}

export interface LogFileOptions {
  folder: string
  /** The current file's name without `.log`. */
  name?: string
  maxBytes?: number
  /** The current file and the rotated ones, together. */
  files?: number
  /** Told once, the first time a write fails (a full disk, a folder that cannot be made). */
  onError?: (error: unknown) => void
}

export const DEFAULT_LOG_LIMITS = { maxBytes: 5 * 1024 * 1024, files: 3 } as const

export function createLogFile(options: LogFileOptions): LogFile {
  const { folder } = options
  const name = options.name ?? 'main'
  const maxBytes = options.maxBytes ?? DEFAULT_LOG_LIMITS.maxBytes
  const files = Math.max(1, options.files ?? DEFAULT_LOG_LIMITS.files)
  const fileOf = (index: number): string => path.join(folder, index === 0 ? `${name}.log` : `${name}.${index}.log`)
  let size: number | null = null
  let pending: string[] = []
  let draining: Promise<void> | null = null
  let failed = false

  async function currentSize(): Promise<number> {
    await fs.mkdir(folder, { recursive: true })
    try {
      return (await fs.stat(fileOf(0))).size
    } catch {
      return 0
    }
  }

  async function rotate(): Promise<void> {
    await fs.rm(fileOf(files - 1), { force: true })
    for (let index = files - 2; index >= 0; index -= 1) {
      await fs.rename(fileOf(index), fileOf(index + 1)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
      })
    }
  }

  /** Writes lines in as few appends as rotation allows: a file is rotated before the line that would overflow it. */
  async function write(lines: readonly string[]): Promise<void> {
    size ??= await currentSize()
    let chunk = ''
    let chunkBytes = 0
    for (const line of lines) {
      const bytes = Buffer.byteLength(line)
      if (size + chunkBytes > 0 && size + chunkBytes + bytes > maxBytes) {
        if (chunk !== '') await fs.appendFile(fileOf(0), chunk, { mode: 0o600 })
        if (files > 1) await rotate()
        else await fs.rm(fileOf(0), { force: true })
        size = 0
        chunk = ''
        chunkBytes = 0
      }
      chunk += line
      chunkBytes += bytes
    }
    if (chunk !== '') await fs.appendFile(fileOf(0), chunk, { mode: 0o600 })
    size += chunkBytes
  }

  async function drain(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending
      pending = []
      try {
        await write(batch)
      } catch (error) {
        // Read the size afresh next time: the failure may have happened half way through a rotation.
        size = null
        if (!failed) options.onError?.(error)
        failed = true
      }
    }
    draining = null
  }

  return {
    folder,
    append(line) {
      pending.push(line)
      draining ??= drain()
    },
    async flush() {
      while (draining !== null) await draining
    },
  }
}
