/**
 * One run of a schedule at a time, across processes (the app's scheduler and the command line
 * the OS entry starts): a lock file per schedule in the data folder, created exclusively,
 * holding the pid, the start time, and where the system says so (Linux) the holder's process
 * start and the boot's id. A lock is stale when its holder is gone, when its pid now names another
 * process (another start, another boot: a crash, then a reboot, hands pids out again), or when it
 * is older than the run limit; a stale lock is taken over, and the take-over itself is exclusive,
 * so two takers cannot both win. A lock file is read bounded and never through a symlink.
 */
import { constants as fsConstants, promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { safeFileName } from '../files/json-file'
import { linuxProcessIdentity, type ProcessIdentity } from './process-identity'

export type { ProcessIdentity } from './process-identity'

/**
 * The longest a run is taken to hold its lock. No run has a total deadline of its own (an export
 * keeps only an idle timeout, the retries add 90 s), so this bound is chosen: far past any real run,
 * short enough that a lock naming a reused pid frees its schedule the same day.
 */
export const RUN_LIMIT_MS = 6 * 60 * 60 * 1000
/** A lock file is a line of JSON; past this many bytes it is not one of ours (and is not read further). */
export const LOCK_READ_BYTES = 4096

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
  /** /proc on Linux by default; elsewhere nothing (then only liveness and age decide). */
  identity?: ProcessIdentity
  fs?: Pick<typeof nodeFs, 'writeFile' | 'open' | 'rm' | 'mkdir' | 'rename'>
}

/** A lock file as read: older versions wrote pid and startedAt only. */
interface LockHolder {
  pid: number
  startedAt: number
  processStart: string | null
  bootId: string | null
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

const noIdentity: ProcessIdentity = { startOf: async () => null, bootId: async () => null }
const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/** The holder a lock file's text names; null when it names none (cut short, not ours). */
export function parseHolder(text: string): LockHolder | null {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null) return null
    const { pid, startedAt, processStart, bootId } = parsed as Record<string, unknown>
    const started = typeof startedAt === 'string' ? Date.parse(startedAt) : NaN
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || !Number.isFinite(started)) return null
    return { pid, startedAt: started, processStart: textOf(processStart), bootId: textOf(bootId) }
  } catch {
    return null
  }
}

export function createRunLocks(options: RunLockOptions): RunLocks {
  const fs = options.fs ?? nodeFs
  const isAlive = options.isAlive ?? processIsAlive
  const identity = options.identity ?? (process.platform === 'linux' ? linuxProcessIdentity : noIdentity)
  const fileOf = (scheduleId: string) => path.join(options.folder, `${safeFileName(scheduleId)}.lock`)

  /**
   * The lock file's holder: 'none' when there is no file, null when it names no holder. Opened
   * without following a symlink and without waiting on a FIFO, checked to be a plain file, and
   * read up to LOCK_READ_BYTES: a lock made a link to an endless device cannot hang a run.
   */
  async function holder(file: string): Promise<LockHolder | null | 'none'> {
    let handle: Awaited<ReturnType<typeof nodeFs.open>>
    try {
      handle = await fs.open(file, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0))
    } catch (error) {
      // ELOOP (a symlink), EACCES and the like: no holder can be named.
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none' : null
    }
    try {
      if (!(await handle.stat()).isFile()) return null
      const buffer = Buffer.alloc(LOCK_READ_BYTES)
      const { bytesRead } = await handle.read(buffer, 0, LOCK_READ_BYTES, 0)
      return parseHolder(buffer.subarray(0, bytesRead).toString('utf8'))
    } catch {
      return null
    } finally {
      await handle.close().catch(() => undefined)
    }
  }

  /** The holder still runs: the same process (pid, start, boot) within the run limit. */
  async function live(current: LockHolder): Promise<boolean> {
    if (!isAlive(current.pid)) return false
    if (options.now().getTime() - current.startedAt > RUN_LIMIT_MS) return false
    const boot = current.bootId === null ? null : await identity.bootId()
    if (boot !== null && boot !== current.bootId) return false
    const start = current.processStart === null ? null : await identity.startOf(current.pid)
    return start === null || start === current.processStart
  }

  async function heldBy(file: string): Promise<boolean> {
    const current = await holder(file)
    return current !== 'none' && current !== null && (await live(current))
  }

  /**
   * The lock folder, made when missing. Node's recursive mkdir answers ENOENT where the disk is
   * read-only (seen on Node 20: EROFS under a read-only mount), which would tell the user the data
   * folder is gone; a plain mkdir then gives the real reason (its parent, schedules/, is there).
   */
  async function makeFolder(): Promise<void> {
    try {
      await fs.mkdir(options.folder, { recursive: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      await fs.mkdir(options.folder).catch((plain: unknown) => {
        if ((plain as NodeJS.ErrnoException).code !== 'EEXIST') throw plain
      })
    }
  }

  async function tryCreate(file: string): Promise<boolean> {
    const [processStart, bootId] = await Promise.all([identity.startOf(options.pid), identity.bootId()])
    const content = { pid: options.pid, startedAt: options.now().toISOString(), ...(processStart ? { processStart } : {}), ...(bootId ? { bootId } : {}) }
    try {
      await fs.writeFile(file, JSON.stringify(content), { flag: 'wx', mode: 0o600 })
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw error
    }
  }

  return {
    async acquire(scheduleId) {
      await makeFolder()
      const file = fileOf(scheduleId)
      const release = async () => {
        const current = await holder(file)
        if (current !== 'none' && current?.pid === options.pid) await fs.rm(file, { force: true })
      }
      if (await tryCreate(file)) return { release }
      if (await heldBy(file)) return null
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
    held: (scheduleId) => heldBy(fileOf(scheduleId)),
  }
}
