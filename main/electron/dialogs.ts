import path from 'node:path'
import type { BrowserWindow, Dialog } from 'electron'
import type { SaveDialog } from '../services/entities/entity-service'

/** The OS save dialog, attached to the app window, starting in the user's Downloads folder. */
export function createSaveDialog(dialog: Dialog, window: () => BrowserWindow | null, downloads: string): SaveDialog {
  return {
    async chooseSavePath(defaultName) {
      const options = { defaultPath: path.join(downloads, defaultName), filters: [{ name: 'CSV', extensions: ['csv'] }] }
      const parent = window()
      const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options)
      return result.canceled || !result.filePath ? null : result.filePath
    },
  }
}
