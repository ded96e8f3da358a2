import { promises as fs } from 'node:fs'
import path from 'node:path'

/**
 * Appends to a file through one handle, with group commit: lines that arrive while a write or
 * a sync is under way go out together, and one sync makes all of them durable. A batch sending
 * four rows at once then pays one disk sync for four lines instead of four syncs in a row.
 */
export interface AppendFile {
  /** Resolves once `text` is written, and synced to disk when `durable` (with everything written before it). */
  append(text: string, durable: boolean): Promise<void>
  close(): Promise<void>
}

export function openAppendFile(file: string): AppendFile {
  let handle: Promise<fs.FileHandle> | null = null
  let pending: string[] = []
  let waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = []
  let syncWanted = false
  let running: Promise<void> | null = null

  const open = (): Promise<fs.FileHandle> => {
    handle ??= fs.mkdir(path.dirname(file), { recursive: true }).then(() => fs.open(file, 'a', 0o600))
    return handle
  }

  async function drain(): Promise<void> {
    while (pending.length > 0) {
      const text = pending.join('')
      const settled = waiters
      const sync = syncWanted
      pending = []
      waiters = []
      syncWanted = false
      try {
        const opened = await open()
        await opened.write(text)
        if (sync) await opened.datasync()
        for (const waiter of settled) waiter.resolve()
      } catch (error) {
        for (const waiter of settled) waiter.reject(error)
      }
    }
    running = null
  }

  return {
    append(text, durable) {
      return new Promise<void>((resolve, reject) => {
        pending.push(text)
        waiters.push({ resolve, reject })
        syncWanted ||= durable
        running ??= drain()
      })
    },
    async close() {
      await running
      if (handle === null) return
      const opened = await handle
      handle = null
      await opened.datasync().catch(() => undefined)
      await opened.close()
    },
  }
}
