/**
 * The file dialogs services may open. Services never import Electron: the app passes native
 * dialogs (main/electron/dialogs.ts), the web host, which has none, passes fixed folders in its
 * data folder (folder-dialogs.ts). Either way the page never names a path.
 */

/** What a dialog offers to pick, e.g. `{ name: 'AdOps Desk presets', extensions: ['json'] }`. */
export interface FileFilter {
  name: string
  extensions: string[]
}

export interface SaveFileDialog {
  /** Asks where to save; null when the user cancels. */
  chooseSavePath(defaultName: string, filter?: FileFilter): Promise<string | null>
}

export interface OpenFilesDialog {
  /** Asks which files to open (several allowed); an empty list when the user cancels. */
  chooseOpenPaths(title: string, filter: FileFilter): Promise<string[]>
}

export interface FolderDialog {
  /** Asks for a folder (a schedule's exports go there); null when the user cancels. */
  chooseFolderPath(title: string): Promise<string | null>
}

/** The folder dialog is optional: hosts and tests without one fall back to the web host's fixed exports folder. */
export type FileDialogs = SaveFileDialog & OpenFilesDialog & Partial<FolderDialog>
