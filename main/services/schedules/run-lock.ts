/**
 * One run of a schedule at a time, across processes (the app's scheduler and the command line
 * the OS entry starts): a lock file per schedule in the data folder, created exclusively,
 * holding the pid and the start time. A lock whose process is gone (a crash, a killed run) is
 * stale: it is taken over, and the take-over itself is exclusive, so two takers cannot both win.
 */
import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { safeFileName } from '../files/json-file'

export interface RunLocks {
  /** The lock, or null when a live run holds it. */
  acquire(scheduleId: string): Promise<{ release(): Promise<void> } | null>
  /** A live run holds it now. */
  held(scheduleId: string): Promise<boolean>
}

export interface RunLockOptions {
  folder: string
  pid: number
  now: () => Date
  /** Whether a process runs; `process.kill(pid, 0)` by default. */
  isAlive?: (pid: number) => boolean
  fs?: Pick<typeof nodeFs, 'writeFile' | 'readFile' | 'rm' | 'mkdir' | 'rename'>
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function createRunLocks(options: RunLockOptions): RunLocks {
  const fs = options.fs ?? nodeFs
  const isAlive = options.isAlive ?? processIsAlive
  const fileOf = (scheduleId: string) => path.join(options.folder, `${safeFileName(scheduleId)}.lock`)

  async function holder(file: string): Promise<{ pid: number } | null> {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(file, 'utf8'))
      const pid = (parsed as { pid?: unknown }).pid
      return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? { pid } : { pid: -1 }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      // Unreadable or cut short (the holder died while writing it): no live holder can be named.
      return { pid: -1 }
    }
  }

  async function tryCreate(file: string): Promise<boolean> {
    try {
      await fs.writeFile(file, JSON.stringify({ pid: options.pid, startedAt: options.now().toISOString() }), { flag: 'wx', mode: 0o600 })
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw error
    }
  }

  return {
    async acquire(scheduleId) {
      await fs.mkdir(options.folder, { recursive: true })
      const file = fileOf(scheduleId)
      const release = async () => {
        const current = await holder(file)
        if (current?.pid === options.pid) await fs.rm(file, { force: true })
      }
      if (await tryCreate(file)) return { release }
      const current = await holder(file)
      if (current !== null && current.pid > 0 && isAlive(current.pid)) return null
      // Stale: moved away under a name of our own first, so of two processes taking it over only one succeeds.
      const aside = `${file}.${options.pid}.stale`
      try {
        await fs.rename(file, aside)
      } catch {
        return null
      }
      await fs.rm(aside, { force: true })
      return (await tryCreate(file)) ? { release } : null
    },
    async held(scheduleId) {
      const current = await holder(fileOf(scheduleId))
      return current !== null && current.pid > 0 && isAlive(current.pid)
    },
  }
}
