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
      try {
        await writeFileAtomic(target, single ? presetFileText(only) : bundleText(presets))
      } catch (error) {
        throw new AppError('storage', `The presets could not be written to ${path.basename(target)}. Check that the folder exists and you may write to it.`, {
          error: (error as Error).message,
        })
      }
      return { saved: true, fileName: path.basename(target), count: presets.length }
    },
  }
}

async function readSmallFile(filePath: string): Promise<string | { problem: string }> {
  try {
    const stat = await fs.stat(filePath)
    if (!stat.isFile()) return { problem: 'it is not a file' }
    if (stat.size > MAX_IMPORT_BYTES) return { problem: `it is ${Math.round(stat.size / 1024 / 1024)} MB, far too big to be a preset` }
    return await fs.readFile(filePath, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { problem: code === 'ENOENT' ? 'it no longer exists' : `the system refused (${code ?? (error as Error).message})` }
  }
}
