import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import type { FileProblem, Preset } from '@contract'
import { asideName, sweepTempsAmong } from '../files/atomic'
import type { Notices } from '../notices'
import { readPresetDocument } from './format'
import { fileNameKey, nameKey } from './names'

/**
 * The presets folder as last read: which files hold which preset, which were refused, and every
 * name on disk. Reading is its one job; the store (`preset-store.ts`) decides what to write and
 * keeps this view up to date with what it wrote.
 */
export interface PresetFolder {
  /** What each preset file held when last read, by base name. */
  readonly files: Map<string, LoadedFile>
  /**
   * Every name in the folder as the disk compares it (`fileNameKey`), presets or not: a new file
   * must not land on one of them. Always, not only on macOS and Windows: the folder is shared
   * through git, and a name that differs from a teammate's only in case is their file on their
   * disk (and ours, were the folder case-insensitive), so "Save as" would silently replace it.
   */
  readonly onDisk: Set<string>
  /** Brings the view in line with the folder: new and changed files read, removed ones forgotten. */
  refresh(): Promise<void>
  /** The usable presets by name key, and the refused files, from what was last read. */
  index(): PresetIndex
  /** refresh, then index. */
  current(): Promise<PresetIndex>
}

export interface PresetIndex {
  byKey: Map<string, { fileName: string; preset: Preset }>
  refused: FileProblem[]
}

export interface LoadedFile {
  /** Base name of the file. */
  fileName: string
  mtimeMs: number
  size: number
  read: { state: 'ok'; preset: Preset } | { state: 'refused'; reason: string }
}

export interface PresetFolderOptions {
  folder: string
  notices: Pick<Notices, 'add'>
  now: () => Date
}

export function createPresetFolder({ folder, notices, now }: PresetFolderOptions): PresetFolder {
  const files = new Map<string, LoadedFile>()
  const onDisk = new Set<string>()
  /** Set once the first read swept what killed writes left (stale temps of preset files), as the document stores do at their start. */
  let swept = false

  /** What a file's text (or the failure to read it) makes of it; moves a file that is not a preset aside. */
  async function interpret(
    fileName: string,
    mtimeMs: number,
    size: number,
    read: { text: string } | { error: NodeJS.ErrnoException },
  ): Promise<LoadedFile | null> {
    if ('error' in read) {
      if (read.error.code === 'ENOENT') return null
      return moveAside(fileName, `it could not be read (${read.error.message})`)
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(read.text.replace(/^\uFEFF/, ''))
    } catch (error) {
      return moveAside(fileName, `it is not valid JSON (${(error as Error).message})`)
    }
    const document = readPresetDocument(parsed)
    if (document.state === 'newer' || document.state === 'hidden')
      return { fileName, mtimeMs, size, read: { state: 'refused', reason: `${fileName} was left as it is because ${document.reason}.` } }
    if (document.state === 'invalid') return moveAside(fileName, document.reason)
    return { fileName, mtimeMs, size, read: { state: 'ok', preset: document.preset } }
  }

  async function moveAside(fileName: string, reason: string): Promise<null> {
    const filePath = path.join(folder, fileName)
    const movedTo = asideName(filePath, now())
    await nodeFs.rename(filePath, movedTo)
    notices.add({
      level: 'warning',
      message: `The preset file ${fileName} could not be read because ${reason}. It was moved aside as ${path.basename(movedTo)}; your other presets are fine.`,
      details: { movedTo },
    })
    return null
  }

  /** Brings the in-memory view in line with the folder: new and changed files read, removed ones forgotten. */
  async function refresh(): Promise<void> {
    let entries = await nodeFs.readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return []
      throw error
    })
    if (!swept) {
      const removed = new Set(await sweepTempsAmong(folder, entries, { now, of: (target) => target.endsWith('.json') }))
      if (removed.size > 0) entries = entries.filter((entry) => !removed.has(entry.name))
      swept = true
    }
    // Temp files start with a dot and files moved aside do not end in .json: only presets are read.
    const names = new Set(entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json') && !entry.name.startsWith('.')).map((entry) => entry.name))
    onDisk.clear()
    for (const entry of entries) onDisk.add(fileNameKey(entry.name))
    for (const known of [...files.keys()]) if (!names.has(known)) files.delete(known)
    // Stats at once (a thousand presets cost one round of them); only new or changed files are read.
    const sorted = [...names].sort()
    const stats = await Promise.all(sorted.map((fileName) => nodeFs.stat(path.join(folder, fileName)).catch(() => null)))
    const changed = sorted.flatMap((fileName, index) => {
      const stat = stats[index]
      const known = files.get(fileName)
      if (stat === null || stat === undefined || (known !== undefined && known.mtimeMs === stat.mtimeMs && known.size === stat.size)) return []
      return [{ fileName, mtimeMs: stat.mtimeMs, size: stat.size }]
    })
    // Read a few at a time (a first start with a thousand presets), then judged in name order so notices come in a stable order.
    const texts = await mapLimited(changed, READ_AT_ONCE, ({ fileName }) =>
      nodeFs.readFile(path.join(folder, fileName), 'utf8').then(
        (text) => ({ text }),
        (error: NodeJS.ErrnoException) => ({ error }),
      ),
    )
    for (const [index, { fileName, mtimeMs, size }] of changed.entries()) {
      const loaded = await interpret(fileName, mtimeMs, size, texts[index] as { text: string } | { error: NodeJS.ErrnoException })
      if (loaded === null) files.delete(fileName)
      else files.set(fileName, loaded)
    }
  }

  /** The usable presets by name key, and the refused files; of two files with one name, the first by file name wins. */
  function index(): PresetIndex {
    const byKey = new Map<string, { fileName: string; preset: Preset }>()
    const refused: FileProblem[] = []
    for (const fileName of [...files.keys()].sort()) {
      const loaded = files.get(fileName) as LoadedFile
      if (loaded.read.state === 'refused') {
        refused.push({ fileName, reason: loaded.read.reason })
        continue
      }
      const key = nameKey(loaded.read.preset.name)
      const first = byKey.get(key)
      if (first !== undefined) {
        refused.push({
          fileName,
          reason: `${fileName} was left as it is because ${first.fileName} already holds a preset named “${first.preset.name}”. Rename one of them.`,
        })
        continue
      }
      byKey.set(key, { fileName, preset: loaded.read.preset })
    }
    return { byKey, refused }
  }

  async function current(): Promise<PresetIndex> {
    await refresh()
    return index()
  }

  return { files, onDisk, refresh, index, current }
}

/** Files read at once: well under the open-file limit of any OS (macOS allows 256 by default). */
const READ_AT_ONCE = 32

async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
