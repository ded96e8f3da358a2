import path from 'node:path'
import type { BrowserWindow, Dialog } from 'electron'
import type { FileDialogs, FileFilter } from '../services/files/dialogs'

const CSV: FileFilter = { name: 'CSV', extensions: ['csv'] }

/**
 * The OS open and save dialogs for every file main reads or writes (presets, exports, entity
 * csv, charts), attached to the app window and starting in the user's Downloads folder; a save
 * offers CSV unless told otherwise. The page never names a path.
 */
export function createFileDialogs(dialog: Dialog, window: () => BrowserWindow | null, downloads: string): FileDialogs {
  return {
    async chooseSavePath(defaultName, filter = CSV) {
      const options = { defaultPath: path.join(downloads, defaultName), filters: [filter] }
      const parent = window()
      const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options)
      return result.canceled || !result.filePath ? null : result.filePath
    },
    async chooseFolderPath(title) {
      const options = { title, defaultPath: downloads, properties: ['openDirectory' as const, 'createDirectory' as const] }
      const parent = window()
      const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
      return result.canceled ? null : (result.filePaths[0] ?? null)
    },
    async chooseOpenPaths(title, filter) {
      const options = { title, defaultPath: downloads, filters: [filter], properties: ['openFile' as const, 'multiSelections' as const] }
      const parent = window()
      const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
      return result.canceled ? [] : result.filePaths
    },
  }
}
