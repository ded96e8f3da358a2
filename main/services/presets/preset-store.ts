import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { normalisePresetName, type FileProblem, type Preset, type PresetSummary, type ReportDefinition } from '@contract'
import { lazy } from '../../../common/lazy'
import { AppError } from '../errors'
import { writeFileAtomic } from '../files/atomic'
import { createSerialQueue } from '../files/serial-queue'
import type { Notices } from '../notices'
import { presetFileText } from './format'
import { fileNameKey, fileStem, freeName, nameKey } from './names'
import { createPresetFolder } from './preset-folder'

/**
 * Presets, one JSON file each in `<userData>/presets/`. The folder is the truth: files a team
 * pulls from git while the app runs are picked up at the next listing (a file is read again only
 * when its size or time changed). A file that is not a preset is moved aside with a notice and
 * the others are unaffected; a file of a newer format is left where it is and listed as refused.
 */
export interface PresetStore {
  list(): Promise<{ presets: PresetSummary[]; refused: FileProblem[] }>
  get(name: string): Promise<Preset>
  /** `replace: false` refuses a name that is taken (any case); `true` overwrites that preset. */
  save(input: { name: string; definition: ReportDefinition; description?: string | undefined }, replace: boolean): Promise<Preset>
  rename(name: string, newName: string): Promise<Preset>
  duplicate(name: string, newName?: string): Promise<Preset>
  /** Removes the file; the preset can be restored until the app quits. */
  delete(name: string): Promise<{ name: string }>
  restore(name: string): Promise<Preset>
  /**
   * Adds presets read from elsewhere (an import), in order. A taken name is `renamed` to "<name>
   * (imported)" or `replaced`; a preset equal to the saved one is left `unchanged`. The folder is
   * looked at once for the whole list, so a bundle of thousands costs one listing, not one each.
   */
  addAll(
    presets: readonly Preset[],
    onConflict: 'rename' | 'replace',
  ): Promise<Array<{ preset: Preset; outcome: 'added' | 'renamed' | 'replaced' | 'unchanged' }>>
}

export interface PresetStoreOptions {
  folder: string
  notices: Pick<Notices, 'add'>
  now?: () => Date
}

/** One collator for every sort: `localeCompare` with options builds a new one per comparison. */
const byName = lazy(() => new Intl.Collator('en', { sensitivity: 'base', numeric: true }))

export const presetsFolder = (userDataDir: string): string => path.join(userDataDir, 'presets')

export function summaryOf(preset: Preset): PresetSummary {
  const { definition } = preset
  return {
    name: preset.name,
    description: preset.description,
    savedAt: preset.savedAt,
    project: definition.project,
    report: definition.report,
    metrics: definition.metrics,
    breakdown: definition.breakdown,
    dates: definition.dates,
  }
}

const sameContent = (left: Preset, right: Preset): boolean =>
  left.name === right.name && left.description === right.description && JSON.stringify(left.definition) === JSON.stringify(right.definition)

export function createPresetStore({ folder, notices, now = () => new Date() }: PresetStoreOptions): PresetStore {
  const serial = createSerialQueue()
  const { files, onDisk, index, current } = createPresetFolder({ folder, notices, now })
  /** Deleted this session, by name key: what `restore` brings back. */
  const deleted = new Map<string, Preset>()

  function notFound(name: string): AppError {
    return new AppError('not_found', `There is no preset named “${name}”. It may have been renamed or deleted; refresh the list.`, { name })
  }

  function taken(name: string, existing: string): AppError {
    return new AppError('conflict', `A preset named “${existing}” already exists. Choose another name, or save over it.`, {
      name,
      fields: { name: ['This name is taken'] },
    })
  }

  /**
   * A file name for a preset: its stem, or the stem with "-2", "-3"… when a file of that name
   * exists in any case. The file the preset already has (`keep`) is kept when the name differs
   * from it only in case: on a case-insensitive disk it is the same file, and writing the new
   * name and then removing the old one would remove what was just written. `tried` (one import)
   * remembers where each stem's search ended, so a bundle of names sharing a stem ("Ü 1",
   * "Ü 2"… all "u") does not try every earlier file name again for each preset.
   */
  function fileNameFor(name: string, keep: string | null, tried?: Map<string, number>): string {
    const stem = fileStem(name)
    for (let attempt = tried?.get(stem) ?? 1; ; attempt += 1) {
      const candidate = attempt === 1 ? `${stem}.json` : `${stem}-${attempt}.json`
      if (keep !== null && fileNameKey(candidate) === fileNameKey(keep)) return keep
      if (!onDisk.has(fileNameKey(candidate))) {
        tried?.set(stem, attempt + 1)
        return candidate
      }
    }
  }

  /**
   * Writes the preset and removes the file it replaces. Saving over a preset keeps its file (a
   * file a team named by hand stays named so); a rename moves it to the new name's file.
   */
  async function writePreset(preset: Preset, previousFile: string | null, keepFileName = true): Promise<Preset> {
    await writePresetFile(preset, previousFile, keepFileName)
    return preset
  }

  /** writePreset, answering the file written (an import keeps its own index of the folder up to date with it). */
  async function writePresetFile(preset: Preset, previousFile: string | null, keepFileName = true, tried?: Map<string, number>): Promise<string> {
    const fileName =
      previousFile !== null && (keepFileName || fileNameKey(fileStem(preset.name)) === fileNameKey(stemOf(previousFile)))
        ? previousFile
        : fileNameFor(preset.name, previousFile, tried)
    const filePath = path.join(folder, fileName)
    // Built (and read back) before the write: a preset its reader would refuse says so and leaves the file as it was.
    const text = presetFileText(preset)
    try {
      await writeFileAtomic(filePath, text)
    } catch (error) {
      throw new AppError('storage', `The preset “${preset.name}” could not be saved to disk. Check that the disk is not full and try again.`, {
        error: (error as Error).message,
      })
    }
    const stat = await nodeFs.stat(filePath)
    files.set(fileName, { fileName, mtimeMs: stat.mtimeMs, size: stat.size, read: { state: 'ok', preset } })
    onDisk.add(fileNameKey(fileName))
    // Written first, removed second: a crash in between leaves both files, never neither.
    if (previousFile !== null && previousFile !== fileName) await removeFile(previousFile)
    return fileName
  }

  async function removeFile(fileName: string): Promise<void> {
    await nodeFs.rm(path.join(folder, fileName), { force: true })
    files.delete(fileName)
  }

  function presetOf(name: string, description: string, definition: ReportDefinition): Preset {
    return { name: normalisePresetName(name), description, savedAt: now().toISOString(), definition }
  }

  return {
    list: () =>
      serial(async () => {
        const { byKey, refused } = await current()
        const presets = [...byKey.values()].map(({ preset }) => summaryOf(preset))
        presets.sort((left, right) => byName().compare(left.name, right.name) || (left.name < right.name ? -1 : 1))
        return { presets, refused }
      }),

    get: (name) =>
      serial(async () => {
        // The file last read for this name, unchanged on disk: opening one preset need not stat the whole folder (a
        // thousand files, ~15 ms). Anything else (a new name, a changed or gone file) looks at the folder again; a file
        // added since under a name already known is noticed at the next list, as the panel lists them when shown.
        const known = index().byKey.get(nameKey(name))
        const loaded = known === undefined ? undefined : files.get(known.fileName)
        if (known !== undefined && loaded !== undefined) {
          const stat = await nodeFs.stat(path.join(folder, known.fileName)).catch(() => null)
          if (stat !== null && stat.mtimeMs === loaded.mtimeMs && stat.size === loaded.size) return known.preset
        }
        const found = (await current()).byKey.get(nameKey(name))
        if (found === undefined) throw notFound(name)
        return found.preset
      }),

    save: ({ name, definition, description }, replace) =>
      serial(async () => {
        const found = (await current()).byKey.get(nameKey(name))
        if (found !== undefined && !replace) throw taken(name, found.preset.name)
        return writePreset(presetOf(name, description ?? found?.preset.description ?? '', definition), found?.fileName ?? null)
      }),

    rename: (name, newName) =>
      serial(async () => {
        const { byKey } = await current()
        const found = byKey.get(nameKey(name))
        if (found === undefined) throw notFound(name)
        const other = byKey.get(nameKey(newName))
        // Changing only the case of a name is a rename of the same preset.
        if (other !== undefined && other.fileName !== found.fileName) throw taken(newName, other.preset.name)
        return writePreset({ ...found.preset, name: normalisePresetName(newName), savedAt: now().toISOString() }, found.fileName, false)
      }),

    duplicate: (name, newName) =>
      serial(async () => {
        const { byKey } = await current()
        const found = byKey.get(nameKey(name))
        if (found === undefined) throw notFound(name)
        const isTaken = (candidate: string) => byKey.has(nameKey(candidate))
        const chosen = newName ?? freeName(`${found.preset.name} copy`, isTaken, (attempt) => `${found.preset.name} copy ${attempt}`)
        if (isTaken(chosen)) throw taken(chosen, byKey.get(nameKey(chosen))?.preset.name ?? chosen)
        return writePreset(presetOf(chosen, found.preset.description, found.preset.definition), null)
      }),

    delete: (name) =>
      serial(async () => {
        const found = (await current()).byKey.get(nameKey(name))
        if (found === undefined) throw notFound(name)
        await removeFile(found.fileName)
        deleted.set(nameKey(found.preset.name), found.preset)
        return { name: found.preset.name }
      }),

    restore: (name) =>
      serial(async () => {
        const key = nameKey(name)
        const preset = deleted.get(key)
        if (preset === undefined) throw new AppError('not_found', `“${name}” was not deleted in this session, so it cannot be restored.`, { name })
        const other = (await current()).byKey.get(key)
        if (other !== undefined)
          throw new AppError('conflict', `A preset named “${other.preset.name}” exists again. Rename it first, then restore the deleted one.`, { name })
        deleted.delete(key)
        return writePreset(preset, null)
      }),

    addAll: (presets, onConflict) =>
      serial(async () => {
        // One look at the folder for the whole import; byKey then follows each write, so a later preset of the
        // same bundle sees the earlier ones (a name used twice is renamed or replaced, as across two imports).
        const { byKey } = await current()
        const tried = new Map<string, number>()
        const renamedFrom = new Map<string, number>()
        const isTaken = (candidate: string) => byKey.has(nameKey(candidate))
        const outcomes: Array<{ preset: Preset; outcome: 'added' | 'renamed' | 'replaced' | 'unchanged' }> = []
        for (const preset of presets) {
          const found = byKey.get(nameKey(preset.name))
          if (found !== undefined && sameContent(found.preset, preset)) {
            outcomes.push({ preset: found.preset, outcome: 'unchanged' })
            continue
          }
          const replacing = found !== undefined && onConflict === 'replace'
          const saved =
            found === undefined || replacing
              ? preset
              : { ...preset, name: freeName(`${preset.name} (imported)`, isTaken, (attempt) => `${preset.name} (imported ${attempt})`, renamedFrom) }
          const fileName = await writePresetFile(saved, replacing ? found.fileName : null, true, tried)
          byKey.set(nameKey(saved.name), { fileName, preset: saved })
          outcomes.push({ preset: saved, outcome: found === undefined ? 'added' : replacing ? 'replaced' : 'renamed' })
        }
        return outcomes
      }),
  }
}

function stemOf(fileName: string): string {
  return fileName.replace(/(-\d+)?\.json$/, '')
}
