import { promises as nodeFs, type Dirent } from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * The slice of `fs.promises` that atomic writes need. Passed in so a test can
 * simulate a crash between the write and the rename.
 */
export interface AtomicFs {
  open: typeof nodeFs.open
  rename: typeof nodeFs.rename
  rm: typeof nodeFs.rm
  mkdir: typeof nodeFs.mkdir
}

/**
 * Write a file so that a reader sees either the old content or the new one, never half:
 * temp file in the same folder (same file system, so rename is atomic), fsync, rename,
 * then fsync the folder so the rename itself survives a power cut.
 */
export async function writeFileAtomic(filePath: string, data: string | Uint8Array, fs: AtomicFs = nodeFs): Promise<void> {
  const folder = path.dirname(filePath)
  await fs.mkdir(folder, { recursive: true })
  const temporary = path.join(folder, `.${path.basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await fs.open(temporary, 'w', 0o600)
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.rename(temporary, filePath)
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => undefined)
    throw error
  }
  await syncFolder(folder, fs)
}

/** The longest file name most file systems take (ext4, APFS, Btrfs; NTFS counts 255 UTF-16 units, which this bound also keeps), in UTF-8 bytes. */
export const MAX_FILE_NAME_BYTES = 255
/** What an atomic write's temp adds around the name it writes: `.` before, `.<12 hex>.tmp` after. */
export const TEMPORARY_NAME_BYTES = 18

/** The longest start of `text` that is at most `limit` bytes of UTF-8, cut between characters (never inside a surrogate pair). */
export function firstBytes(text: string, limit: number): string {
  let used = 0
  let end = 0
  for (const character of text) {
    used += Buffer.byteLength(character, 'utf8')
    if (used > limit) break
    end += character.length
  }
  return text.slice(0, end)
}

/** The longest end of `text` that is at most `limit` bytes of UTF-8, cut between characters. */
export function lastBytes(text: string, limit: number): string {
  const characters = Array.from(text)
  let used = 0
  let start = characters.length
  while (start > 0) {
    const size = Buffer.byteLength(characters[start - 1] as string, 'utf8')
    if (used + size > limit) break
    used += size
    start -= 1
  }
  return characters.slice(start).join('')
}

/** The temp file of an atomic write of `<name>`: `.<name>.<12 hex>.tmp` (writeFileAtomic, save-export.ts). */
const TEMPORARY = /^\.(.+)\.[0-9a-f]{12}\.tmp$/

/** Temp files younger than this may belong to a write in flight (this process's or another's) and are left alone. */
export const STALE_TEMPORARY_MS = 60 * 60 * 1000

export interface SweepOptions {
  now: () => Date
  /** Which targets' temps to remove (a store sweeps only its own files' temps); all of our naming when absent. */
  of?: (target: string) => boolean
  maxAgeMs?: number
}

/**
 * Removes the temp files interrupted atomic writes left in `folder` (the process died between
 * the write and the rename): only files of our own naming, only of the targets `of` accepts,
 * only older than `maxAgeMs`. Best effort: a file it cannot remove is left for the next start.
 * Returns the names removed.
 */
export async function sweepStaleTemps(folder: string, options: SweepOptions): Promise<string[]> {
  const entries = await nodeFs.readdir(folder, { withFileTypes: true }).catch(() => [])
  return sweepTempsAmong(folder, entries, options)
}

/** `sweepStaleTemps` over a listing the caller already made (the presets folder's first read lists it anyway). */
export async function sweepTempsAmong(
  folder: string,
  entries: readonly Dirent[],
  { now, of = () => true, maxAgeMs = STALE_TEMPORARY_MS }: SweepOptions,
): Promise<string[]> {
  const removed: string[] = []
  // The clock is read only when there is a temp to judge: a folder without any costs nothing but the listing.
  let before: number | null = null
  for (const entry of entries) {
    const target = TEMPORARY.exec(entry.name)?.[1]
    if (!entry.isFile() || target === undefined || !of(target)) continue
    const file = path.join(folder, entry.name)
    const stat = await nodeFs.stat(file).catch(() => null)
    before ??= now().getTime() - maxAgeMs
    if (stat === null || stat.mtime.getTime() > before) continue
    await nodeFs.rm(file, { force: true }).then(
      () => removed.push(entry.name),
      () => undefined,
    )
  }
  return removed
}

/** Fsyncs a folder so a rename in it survives a power cut; best effort (Windows cannot open a folder for sync). */
export async function syncFolder(folder: string, fs: Pick<AtomicFs, 'open'> = nodeFs): Promise<void> {
  // Not every platform lets a directory be opened for sync (Windows does not); the rename already happened.
  try {
    const handle = await fs.open(folder, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    /* best effort */
  }
}

/** Name for a file moved aside: keeps the original name and says when and why. */
export function asideName(filePath: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-')
  return `${filePath}.corrupt-${stamp}`
}
