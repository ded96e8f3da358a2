import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { AppError } from '../errors'
import { writeFileAtomic, type AtomicFs } from './atomic'
import type { FileFilter, SaveFileDialog } from './dialogs'

/**
 * Where a file main writes on the page's behalf goes: only where a save dialog main opened
 * says (the web host's "dialog" picks a new name in its exports folder), with the format's
 * extension forced. A dialog confirms replacing the file it was given; a name we changed by
 * adding the extension was never shown, so an existing file of that name is refused, not replaced.
 */
export async function chooseSaveTarget(
  dialog: SaveFileDialog,
  defaultName: string,
  filter: FileFilter & { extensions: [string, ...string[]] },
  fs: Pick<typeof nodeFs, 'stat'> = nodeFs,
): Promise<string | null> {
  const extension = filter.extensions[0]
  const chosen = await dialog.chooseSavePath(withExtension(safeBaseName(defaultName), extension), filter)
  if (chosen === null) return null
  if (!path.isAbsolute(chosen)) throw new AppError('internal', 'The save dialog answered a path that is not absolute.')
  if (chosen.toLowerCase().endsWith(`.${extension.toLowerCase()}`)) return chosen
  const forced = `${chosen}.${extension}`
  const existing = await fs.stat(forced).catch(() => null)
  if (existing !== null) {
    throw new AppError(
      'conflict',
      `A file named ${path.basename(forced)} already exists in ${path.basename(path.dirname(forced))}, and it is not the one you chose. Export again and choose another name.`,
    )
  }
  return forced
}

export function withExtension(name: string, extension: string): string {
  return name.toLowerCase().endsWith(`.${extension.toLowerCase()}`) ? name : `${name}.${extension}`
}

/** A file name made from user text (a preset name, a report): no folders, no characters a file system refuses. */
export function safeBaseName(name: string): string {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, '-')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 150)
  return cleaned === '' ? 'export' : cleaned
}

/** What may cross the bridge about a file: its base name and its folder's base name, never the path. */
export function describeFile(filePath: string): { fileName: string; folderName: string } {
  return { fileName: path.basename(filePath), folderName: path.basename(path.dirname(filePath)) }
}

/** Writes the file the dialog chose, atomically; a failure names the file and its folder (what may reach the page), never the path. */
export async function writeChosenFile(target: string, data: string | Uint8Array, fs?: AtomicFs): Promise<void> {
  try {
    await writeFileAtomic(target, data, fs)
  } catch (error) {
    throw new AppError(
      'storage',
      `${path.basename(target)} could not be written in ${path.basename(path.dirname(target))}. Check that the folder still exists, that you may write to it and that the disk is not full.`,
      { errorCode: (error as NodeJS.ErrnoException).code ?? null },
    )
  }
}
