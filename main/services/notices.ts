import { randomUUID } from 'node:crypto'
import type { Notice } from '@contract'

/**
 * Things main must tell the user about that did not come from a request they made:
 * a corrupt file moved aside at start, a keychain entry that could not be removed.
 * Kept until dismissed, and pushed to the window as they happen.
 *
 * No file path crosses the bridge, and every notice does (`app:info`, `onNotice`): whoever adds
 * one may name a file by its full path (where a file was moved aside, an OS error's text), so
 * `add` rewrites every path in the message and the details before anyone sees the notice. A
 * path inside the app's own folder becomes relative to it ("presets/weekly.json.corrupt-…",
 * which the user finds through Open Data Folder); any other becomes its file name.
 */
export interface Notices {
  add(notice: Omit<Notice, 'id'>): Notice
  list(): Notice[]
  dismiss(id: string): void
  subscribe(listener: (notice: Notice) => void): () => void
}

export interface NoticesOptions {
  /** The app's data folder: paths inside it are shown relative to it. Without it, every path becomes its file name. */
  appFolder?: string
}

export function createNotices(newId: () => string = randomUUID, options: NoticesOptions = {}): Notices {
  const items: Notice[] = []
  const listeners = new Set<(notice: Notice) => void>()
  const withoutPaths = pathsHidden(options.appFolder ?? null)
  return {
    add(notice) {
      const full: Notice = {
        id: newId(),
        level: notice.level,
        message: withoutPaths(notice.message),
        ...(notice.details === undefined ? {} : { details: hideIn(notice.details, withoutPaths) as Record<string, unknown> }),
      }
      items.push(full)
      for (const listener of listeners) listener(full)
      return full
    },
    list: () => [...items],
    dismiss(id) {
      const index = items.findIndex((item) => item.id === id)
      if (index >= 0) items.splice(index, 1)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** Every string in a value, however deep, passed through `clean`. */
function hideIn(value: unknown, clean: (text: string) => string): unknown {
  if (typeof value === 'string') return clean(value)
  if (Array.isArray(value)) return value.map((item) => hideIn(item, clean))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, hideIn(item, clean)]))
  return value
}

const fileNameOf = (filePath: string): string =>
  filePath
    .split(/[\\/]+/)
    .filter(Boolean)
    .pop() ?? ''

/** Quoted, a path may hold spaces: `open '/home/me/My Files/x.json'` (how Node's errors name files). */
const QUOTED_PATH = /(['"])((?:[A-Za-z]:)?[\\/][^'"]*)\1/g
/**
 * Unquoted: from a drive letter, a slash or a backslash at the start of a word up to the next
 * space or quote. A URL's `//host/path` follows a colon, not a word's start, so it stays.
 */
const BARE_PATH = /(^|[\s([=,;])((?:[A-Za-z]:)?[\\/][^\s'"()<>]+)/g

/**
 * A text's paths as the page may see them. The app folder goes first, spelled with either
 * separator: its own name may hold spaces ("AdOps Desk"), which no pattern could tell from the
 * end of a path.
 */
export function pathsHidden(appFolder: string | null): (text: string) => string {
  const folders =
    appFolder === null
      ? []
      : [...new Set([appFolder, appFolder.replace(/\\/g, '/'), appFolder.replace(/\//g, '\\')])].map((folder) => folder.replace(/[\\/]+$/, ''))
  return (text) => {
    let clean = text
    for (const folder of folders) {
      if (folder === '') continue
      clean = clean.split(`${folder}/`).join('').split(`${folder}\\`).join('').split(folder).join('the data folder')
    }
    return clean
      .replace(QUOTED_PATH, (_quoted, quote: string, filePath: string) => `${quote}${fileNameOf(filePath)}${quote}`)
      .replace(BARE_PATH, (_whole, before: string, filePath: string) => `${before}${fileNameOf(filePath)}`)
  }
}
