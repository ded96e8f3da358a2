import { promises as fs } from 'node:fs'
import path from 'node:path'

/**
 * Files of the result cache that are not results: kept results (and indexes) moved aside because
 * they could not be read. They are reported when moved, and a result can always be run again,
 * so they count against the cache's size limit like the results do, and go first when it is
 * over: a folder of damaged results must not grow without bound beside a bounded cache.
 * (Temp files of killed writes are swept at start by `sweepStaleTemps`.)
 */
export interface Aside {
  path: string
  bytes: number
  /** When it was moved aside (its modification time): the oldest go first. */
  at: number
}

/** `<40 hex>.kept|json.corrupt-<stamp>` in a profile's folder, `index.json.corrupt-<stamp>` at the top (asideName's naming). */
export const isAsideName = (name: string): boolean => /^(?:[0-9a-f]{40}\.(?:kept|json)|index\.json)\.corrupt-[0-9TZ-]+$/.test(name)

export interface AsideLedger {
  /** Adds a file just moved aside (or found on disk); unreadable ones are skipped. */
  add(filePath: string): Promise<void>
  bytes(): number
  /** Removes the oldest moved-aside files until `total` (results plus these) fits in `limit`; returns the new total. */
  evict(total: number, limit: number): Promise<number>
  /** Forgets the files under a folder removed whole. */
  forgetUnder(folder: string): void
}

export function createAsideLedger(): AsideLedger {
  const asides = new Map<string, Aside>()
  return {
    async add(filePath) {
      const stat = await fs.stat(filePath).catch(() => null)
      if (stat !== null && stat.isFile()) asides.set(filePath, { path: filePath, bytes: stat.size, at: stat.mtime.getTime() })
    },
    bytes: () => [...asides.values()].reduce((sum, aside) => sum + aside.bytes, 0),
    async evict(total, limit) {
      let left = total
      for (const aside of [...asides.values()].sort((one, other) => one.at - other.at)) {
        if (left <= limit) break
        await fs.rm(aside.path, { force: true })
        asides.delete(aside.path)
        left -= aside.bytes
      }
      return left
    },
    forgetUnder(folder) {
      for (const file of asides.keys()) if (file.startsWith(`${folder}${path.sep}`)) asides.delete(file)
    },
  }
}
