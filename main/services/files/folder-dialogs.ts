import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { FileDialogs } from './dialogs'

/** Where the web host reads imports from and writes exports to, inside its data folder. */
export function dialogFolders(userDataDir: string): { imports: string; exports: string } {
  return { imports: path.join(userDataDir, 'imports'), exports: path.join(userDataDir, 'exports') }
}

/**
 * Dialogs for a host without native ones (the web host): "open" takes every matching file in
 * `<userData>/imports/`, "save" picks a new name in `<userData>/exports/` so nothing there is
 * ever overwritten. The page still names no path; the user puts files in and takes them out.
 */
export function createFolderDialogs(userDataDir: string): FileDialogs {
  const folders = dialogFolders(userDataDir)
  const matches = (name: string, extensions: readonly string[]) => extensions.some((extension) => name.toLowerCase().endsWith(`.${extension.toLowerCase()}`))

  return {
    async chooseOpenPaths(_title, filter) {
      let entries
      try {
        entries = await fs.readdir(folders.imports, { withFileTypes: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        // Created so the user can see where to put files next time; nothing to open yet.
        await fs.mkdir(folders.imports, { recursive: true })
        return []
      }
      return entries
        .filter((entry) => entry.isFile() && !entry.name.startsWith('.') && matches(entry.name, filter.extensions))
        .map((entry) => path.join(folders.imports, entry.name))
        .sort()
    },

    // A schedule's folder: the exports folder itself, where the user takes files out.
    async chooseFolderPath() {
      await fs.mkdir(folders.exports, { recursive: true })
      return folders.exports
    },

    async chooseSavePath(defaultName) {
      await fs.mkdir(folders.exports, { recursive: true })
      const base = path.basename(defaultName)
      const extension = path.extname(base)
      const stem = base.slice(0, base.length - extension.length)
      for (let attempt = 1; ; attempt += 1) {
        const candidate = path.join(folders.exports, attempt === 1 ? base : `${stem} (${attempt})${extension}`)
        // Not claimed with an empty file: a failed export must leave nothing behind. The web host is one process, so no one else takes the name meanwhile.
        try {
          await fs.access(candidate)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return candidate
          throw error
        }
      }
    },
  }
}
