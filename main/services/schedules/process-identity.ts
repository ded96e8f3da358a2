/**
 * Linux's word on a process beyond its pid, so a run lock can tell its holder from a later
 * process given the same pid: the process's start in clock ticks since boot (field 22 of
 * /proc/<pid>/stat) and the boot's id (/proc/sys/kernel/random/boot_id). Anything unreadable is
 * null: the lock then falls back on liveness and age.
 */
import { promises as fs } from 'node:fs'
import { lazy } from '../../../common/lazy'

/** What the system says of a process beyond its pid; null where it cannot say. */
export interface ProcessIdentity {
  /** When the process with this pid started, as an opaque mark (Linux: clock ticks since boot). */
  startOf(pid: number): Promise<string | null>
  /** This boot's id. */
  bootId(): Promise<string | null>
}

/** The start field of a /proc/<pid>/stat line; the command name (field 2) may hold spaces and parentheses. */
export function startFieldOf(stat: string): string | null {
  const fields = stat
    .slice(stat.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/)
  // Fields after the name start at field 3 (state); the start time is field 22.
  const start = fields[22 - 3]
  return start !== undefined && /^\d+$/.test(start) ? start : null
}

const readSmall = (file: string): Promise<string | null> =>
  fs.readFile(file, 'utf8').then(
    (text) => text,
    () => null,
  )

// The boot's id does not change while this process lives: read once.
const bootIdOnce = lazy(() => readSmall('/proc/sys/kernel/random/boot_id').then((text) => text?.trim() || null))

export const linuxProcessIdentity: ProcessIdentity = {
  async startOf(pid) {
    const stat = await readSmall(`/proc/${pid}/stat`)
    return stat === null ? null : startFieldOf(stat)
  },
  bootId: bootIdOnce,
}
