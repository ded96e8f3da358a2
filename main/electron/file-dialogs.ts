import path from 'node:path'
import type { BrowserWindow, Dialog } from 'electron'
import type { FileDialogs } from '../services/files/dialogs'

/**
 * The OS's own open and save dialogs, attached to the app window, for every file main writes
 * or reads on the page's behalf (services/files/dialogs.ts). The save dialog starts in the
 * user's Downloads folder and itself asks before replacing a file.
 */
export function createFileDialogs(dialog: Dialog, window: () => BrowserWindow | null, downloads: string): FileDialogs {
  const parent = (): BrowserWindow | null => {
    const current = window()
    return current !== null && !current.isDestroyed() ? current : null
  }
  return {
    async chooseSavePath(defaultName, filter) {
      const options = { defaultPath: path.join(downloads, path.basename(defaultName)), ...(filter ? { filters: [filter] } : {}) }
      const owner = parent()
      const result = owner ? await dialog.showSaveDialog(owner, options) : await dialog.showSaveDialog(options)
      return result.canceled || !result.filePath ? null : result.filePath
    },
    async chooseOpenPaths(title, filter) {
      const options = { title, filters: [filter], properties: ['openFile' as const, 'multiSelections' as const] }
      const owner = parent()
      const result = owner ? await dialog.showOpenDialog(owner, options) : await dialog.showOpenDialog(options)
      return result.canceled ? [] : result.filePaths
    },
  }
}
