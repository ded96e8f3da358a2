import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { AppError } from '../errors'
import { firstBytes, lastBytes, MAX_FILE_NAME_BYTES, TEMPORARY_NAME_BYTES, writeFileAtomic, type AtomicFs } from './atomic'
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

/** Room kept after a base name: its extension, or the ` 2026-12-08.pdf` a board file's suggested name adds. */
const EXTENSION_ROOM = 24
/** A base name's bound in UTF-8 bytes: with its extension and an atomic write's temp suffix, within a file name's 255. */
export const BASE_NAME_BYTES = MAX_FILE_NAME_BYTES - TEMPORARY_NAME_BYTES - EXTENSION_ROOM
/** The end kept when a name is cut in the middle: a pattern's dates come last, and two runs' files must not share a name. */
const KEPT_END_BYTES = 48
const ELLIPSIS = '…'

/**
 * Names Windows keeps for devices, in any case, whatever follows the first dot, trailing spaces
 * dropped (`CON`, `con.csv`, `AUX .txt`; COM and LPT with 0–9 or a superscript 1–3).
 */
const DEVICE_STEM = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]) *(?=\.|$)/i

/**
 * A file name made from user text (a preset name, a report): no folders, no characters a file
 * system refuses, no name Windows keeps for a device (files travel, so on every OS: `CON` becomes
 * `CON_`), and at most BASE_NAME_BYTES bytes of UTF-8. A longer name keeps its start and its end
 * with "…" between, cut between characters.
 */
export function safeBaseName(name: string): string {
  const cleaned = name.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, '-').replace(/^[\s.]+|[\s.]+$/g, '')
  if (cleaned === '') return 'export'
  const allowed = cleaned.replace(DEVICE_STEM, (stem) => `${stem.trimEnd()}_`)
  if (Buffer.byteLength(allowed, 'utf8') <= BASE_NAME_BYTES) return allowed
  const end = lastBytes(allowed, KEPT_END_BYTES).trimStart()
  const start = firstBytes(allowed, BASE_NAME_BYTES - Buffer.byteLength(ELLIPSIS + end, 'utf8')).trimEnd()
  return `${start}${ELLIPSIS}${end}`
}

/** The sentence for a file name longer than the disk takes: what happened and what to do, never "check the disk". */
export function nameTooLong(fileName: string): string {
  return `The name ${fileName} is too long for the disk: a file name holds at most ${MAX_FILE_NAME_BYTES} bytes (about 85 characters of Chinese or Japanese, 255 of plain Latin letters), and a whole path about 4,000. Choose a shorter name or folder and try again.`
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
    const errorCode = (error as NodeJS.ErrnoException).code ?? null
    if (errorCode === 'ENAMETOOLONG') throw new AppError('storage', nameTooLong(path.basename(target)), { errorCode })
    throw new AppError(
      'storage',
      `${path.basename(target)} could not be written in ${path.basename(path.dirname(target))}. Check that the folder still exists, that you may write to it and that the disk is not full.`,
      { errorCode },
    )
  }
}
