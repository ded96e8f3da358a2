import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { FileProblem, Preset, PresetSummary } from '@contract'
import { AppError } from '../errors'
import { writeFileAtomic } from '../files/atomic'
import type { FileDialogs, FileFilter } from '../files/dialogs'
import { bundleText, presetFileText, readImportText } from './format'
import { fileStem } from './names'
import { summaryOf, type PresetStore } from './preset-store'

/** Import and export of preset files through dialogs main opens: the page never names a path. */
export interface PresetTransfer {
  import(options: { replace: boolean }): Promise<{ cancelled: boolean; imported: PresetSummary[]; skipped: FileProblem[] }>
  export(names: readonly string[]): Promise<{ saved: boolean; fileName: string | null; count: number }>
}

const PRESET_FILES: FileFilter = { name: 'AdOps Desk presets', extensions: ['json'] }
/** Far beyond any preset (a few kilobytes): a bigger file is not one, and is not read into memory. */
const MAX_IMPORT_BYTES = 20 * 1024 * 1024

export function createPresetTransfer(store: PresetStore, dialogs: FileDialogs): PresetTransfer {
  return {
    async import({ replace }) {
      const paths = await dialogs.chooseOpenPaths('Import presets', PRESET_FILES)
      if (paths.length === 0) return { cancelled: true, imported: [], skipped: [] }
      const skipped: FileProblem[] = []
      // Every file is read first and the presets added in one go: the store looks at its folder once per call.
      const presets: Preset[] = []
      for (const filePath of paths) {
        const fileName = path.basename(filePath)
        const text = await readSmallFile(filePath)
        if (typeof text !== 'string') {
          skipped.push({ fileName, reason: `${fileName} could not be read because ${text.problem}.` })
          continue
        }
        const read = readImportText(text)
        if ('problem' in read) {
          skipped.push({ fileName, reason: `${fileName} could not be imported because ${read.problem}.` })
          continue
        }
        for (const problem of read.problems) skipped.push({ fileName, reason: `In ${fileName}, ${problem}.` })
        presets.push(...read.presets)
      }
      const added = await store.addAll(presets, replace ? 'replace' : 'rename')
      return { cancelled: false, imported: added.map(({ preset }) => summaryOf(preset)), skipped }
    },

    async export(names) {
      const presets: Preset[] = []
      for (const name of names) presets.push(await store.get(name))
      const [only] = presets
      const single = presets.length === 1 && only !== undefined
      const target = await dialogs.chooseSavePath(single ? `${fileStem(only.name)}.json` : 'adopsdesk-presets.json', PRESET_FILES)
      if (target === null) return { saved: false, fileName: null, count: 0 }
      const text = single ? presetFileText(only) : bundleText(presets)
      try {
        await writeFileAtomic(target, text)
      } catch (error) {
        throw new AppError('storage', `The presets could not be written to ${path.basename(target)}. Check that the folder exists and you may write to it.`, {
          error: (error as Error).message,
        })
      }
      return { saved: true, fileName: path.basename(target), count: presets.length }
    },
  }
}

/**
 * A preset file's text, read only when it is a regular file of at most MAX_IMPORT_BYTES (the app's import and the
 * command line's `report run --preset FILE` alike); what is read stops there even if the file grew after its size
 * was looked at. A problem is a phrase for "… could not be read because <problem>", with the system's code if any.
 */
export async function readSmallFile(filePath: string): Promise<string | { problem: string; code: string | null }> {
  const refused = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? null
    return { problem: code === 'ENOENT' ? 'it no longer exists' : `the system refused (${code ?? (error as Error).message})`, code }
  }
  let handle: fs.FileHandle
  try {
    handle = await fs.open(filePath, 'r')
  } catch (error) {
    return refused(error)
  }
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) return { problem: 'it is not a file', code: null }
    if (stat.size > MAX_IMPORT_BYTES) return tooBig(stat.size)
    const chunks: Buffer[] = []
    let length = 0
    for (;;) {
      const chunk = Buffer.alloc(Math.min(Math.max(stat.size - length, 64 * 1024), MAX_IMPORT_BYTES + 1 - length, 1024 * 1024))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, length)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      length += bytesRead
      if (length > MAX_IMPORT_BYTES) return tooBig(length)
    }
    return Buffer.concat(chunks, length).toString('utf8')
  } catch (error) {
    return refused(error)
  } finally {
    await handle.close().catch(() => undefined)
  }
}

function tooBig(size: number): { problem: string; code: null } {
  return {
    problem: `it is ${Math.max(1, Math.round(size / 1024 / 1024))} MB or more, far too big to be a preset (a preset file is at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB)`,
    code: null,
  }
}
