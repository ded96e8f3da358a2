import { createReadStream, promises } from 'node:fs'
import type { AtomicFs } from '../files/atomic'
import type { SaveFs } from '../reporting/save-export'

/**
 * Every file system call of the exports folder, in one port: the streamed save, the atomic
 * chart write, the save dialog's existence check, the leftovers sweep, the finished-file check
 * and the preview's read. Passed in, so a test can fill the disk, fail a rename or watch a read.
 */
export interface ExportFs extends AtomicFs, SaveFs {
  stat: typeof promises.stat
  readdir: typeof promises.readdir
  createReadStream: typeof createReadStream
}

export const nodeExportFs: ExportFs = {
  open: promises.open,
  rename: promises.rename,
  rm: promises.rm,
  mkdir: promises.mkdir,
  stat: promises.stat,
  readdir: promises.readdir,
  createReadStream,
}

/** The real file system with the calls a test replaced (a test fakes only what it watches). */
export function exportFs(replaced: Partial<ExportFs> = {}): ExportFs {
  return { ...nodeExportFs, ...replaced }
}
