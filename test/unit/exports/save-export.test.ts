import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_PENDING_BYTES, saveStreamAtomically, type SaveFs } from '../../../main/services/reporting/save-export'

let folder: string
beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'adops-save-export-'))
})
afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true })
})

/** A download whose chunks are all there at once, as a fast network hands them over. */
async function* download(chunks: readonly string[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield Buffer.from(chunk)
}

/**
 * The real file system, with each write's bytes recorded and each write finishing only after the
 * event loop turned once (as a disk write does, on libuv's thread pool), or failing as told.
 */
function recordingFs(fail?: (writes: number) => Error | null): { fs: SaveFs; writes: string[] } {
  const writes: string[] = []
  const recording: SaveFs = {
    rename: fs.rename,
    rm: fs.rm,
    async open(...args: Parameters<typeof fs.open>) {
      const handle = await fs.open(...args)
      return new Proxy(handle, {
        get(target, property) {
          // One write or one writev is one system call: recorded as one write of all its bytes.
          if (property === 'write' || property === 'writev') {
            return async (data: Uint8Array | Uint8Array[]) => {
              await new Promise((resolve) => setImmediate(resolve))
              const error = fail?.(writes.length) ?? null
              if (error !== null) throw error
              writes.push(Buffer.concat(Array.isArray(data) ? data : [data]).toString())
              return Array.isArray(data) ? target.writev(data) : target.write(data)
            }
          }
          const value: unknown = Reflect.get(target, property)
          return typeof value === 'function' ? (value as (...inner: unknown[]) => unknown).bind(target) : value
        },
      })
    },
  }
  return { fs: recording, writes }
}

describe('saving a download', () => {
  it('reads on while the disk writes: chunks that came meanwhile go to the disk in one write', async () => {
    const { fs: recording, writes } = recordingFs()
    const target = path.join(folder, 'report.csv')
    const progress: number[] = []
    const { bytes } = await saveStreamAtomically(download(['a,b\n', '1,2\n', '3,4\n', '5,6\n']), target, {
      fs: recording,
      onProgress: (written) => progress.push(written),
    })
    expect(await fs.readFile(target, 'utf8')).toBe('a,b\n1,2\n3,4\n5,6\n')
    expect(bytes).toBe(16)
    // The first chunk is written at once; the three that arrived during that write, together.
    expect(writes).toEqual(['a,b\n', '1,2\n3,4\n5,6\n'])
    expect(progress).toEqual([4, 16])
  })

  it("hands the download's own chunks to the disk, never a copy, and shows each chunk once in order", async () => {
    const handed: Uint8Array[] = []
    const copying: SaveFs = {
      rename: fs.rename,
      rm: fs.rm,
      async open(...args: Parameters<typeof fs.open>) {
        const handle = await fs.open(...args)
        return new Proxy(handle, {
          get(target, property) {
            if (property === 'write' || property === 'writev') {
              return async (data: Uint8Array | Uint8Array[]) => {
                // The disk is slow: the chunks that come meanwhile wait for the next write.
                await new Promise((resolve) => setImmediate(resolve))
                handed.push(...(Array.isArray(data) ? data : [data]))
                return Array.isArray(data) ? target.writev(data) : target.write(data)
              }
            }
            const value: unknown = Reflect.get(target, property)
            return typeof value === 'function' ? (value as (...inner: unknown[]) => unknown).bind(target) : value
          },
        })
      },
    }
    const chunks = Array.from({ length: 50 }, (_unused, index) => Buffer.from(`${index},${'x'.repeat(1000)}\n`))
    const seen: Uint8Array[] = []
    const target = path.join(folder, 'same.csv')
    await saveStreamAtomically(download(chunks.map(String)), target, { fs: copying, onChunk: (chunk) => seen.push(chunk) })
    expect(await fs.readFile(target)).toEqual(Buffer.concat(chunks))
    // Joining chunks into one buffer before each write copied the whole file once more (a tenth
    // of the command line's CPU on a 100 MiB export); a writev takes them as they are.
    expect(handed.length).toBe(chunks.length)
    expect(seen.map(String)).toEqual(chunks.map(String))
    expect(handed.every((chunk, index) => chunk === seen[index])).toBe(true)
  })

  it('holds at most MAX_PENDING_BYTES while the disk is slower than the network', async () => {
    const { fs: recording, writes } = recordingFs()
    const big = 'x'.repeat(MAX_PENDING_BYTES / 2)
    const target = path.join(folder, 'big.csv')
    await saveStreamAtomically(download(['head\n', big, big, big, big, big]), target, { fs: recording })
    expect((await fs.stat(target)).size).toBe(5 + 5 * big.length)
    expect(Math.max(...writes.map((write) => write.length))).toBeLessThanOrEqual(MAX_PENDING_BYTES)
  })

  it("a write that fails stops the download and reports the disk's error; no file is left", async () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    const { fs: recording } = recordingFs((writes) => (writes === 1 ? full : null))
    let destroyed = false
    // A download that would go on for ever: only the failed write can end the save.
    const endless = {
      async *[Symbol.asyncIterator]() {
        for (let index = 0; !destroyed; index++) {
          yield Buffer.from(`${index}\n`)
          await new Promise((resolve) => setImmediate(resolve))
        }
      },
      destroy: () => void (destroyed = true),
    }
    const target = path.join(folder, 'full.csv')
    await fs.writeFile(target, 'the earlier file\n')
    const error = await saveStreamAtomically(endless, target, { fs: recording }).then(
      () => null,
      (caught: unknown) => caught as { code?: string; details?: Record<string, unknown> },
    )
    expect(error?.code).toBe('storage')
    expect(error?.details?.errorCode).toBe('ENOSPC')
    expect(destroyed).toBe(true)
    expect(await fs.readFile(target, 'utf8')).toBe('the earlier file\n')
    expect((await fs.readdir(folder)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})
