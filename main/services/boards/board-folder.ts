import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import type { Board, FileProblem } from '@contract'
import { asideName } from '../files/atomic'
import type { Notices } from '../notices'
import { fileNameKey, nameKey } from '../presets/names'
import { readBoardDocument } from './board-format'

/**
 * The boards folder as last read: which file holds which board, and which were refused. Reading is
 * its one job (as presets/preset-folder.ts for presets); board-store.ts writes. A file is read again
 * only when its size or time changed, so boards a team pulls from git are picked up at the next look.
 */
export interface BoardIndex {
  byKey: Map<string, { fileName: string; board: Board }>
  refused: FileProblem[]
  /** Every name in the folder as the disk compares it: a new file must not land on one of them. */
  onDisk: Set<string>
}

export interface BoardFolder {
  current(): Promise<BoardIndex>
  /** Tells the view what was just written, so the next look need not read it again. */
  wrote(fileName: string, board: Board): Promise<void>
  forget(fileName: string): void
}

type Loaded = { mtimeMs: number; size: number; read: { state: 'ok'; board: Board } | { state: 'refused'; reason: string } }

/** A board file is a few kilobytes; a bigger one is not read into memory. */
const MAX_BOARD_BYTES = 2 * 1024 * 1024

export function createBoardFolder({ folder, notices, now }: { folder: string; notices: Pick<Notices, 'add'>; now: () => Date }): BoardFolder {
  const files = new Map<string, Loaded>()

  async function moveAside(fileName: string, reason: string): Promise<null> {
    const filePath = path.join(folder, fileName)
    const movedTo = asideName(filePath, now())
    await nodeFs.rename(filePath, movedTo)
    notices.add({
      level: 'warning',
      message: `The board file ${fileName} could not be read because ${reason}. It was moved aside as ${path.basename(movedTo)}; your other boards are fine.`,
      details: { movedTo },
    })
    return null
  }

  async function interpret(fileName: string, size: number): Promise<Loaded['read'] | null> {
    if (size > MAX_BOARD_BYTES) return moveAside(fileName, `it is larger than ${MAX_BOARD_BYTES / 1024 / 1024} MB, far too big to be a board`)
    let text: string
    try {
      text = await nodeFs.readFile(path.join(folder, fileName), 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      return moveAside(fileName, `it could not be read (${(error as Error).message})`)
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text.replace(/^\uFEFF/, ''))
    } catch (error) {
      return moveAside(fileName, `it is not valid JSON (${(error as Error).message})`)
    }
    const document = readBoardDocument(parsed)
    if (document.state === 'ok') return { state: 'ok', board: document.board }
    if (document.state === 'invalid') return moveAside(fileName, document.reason)
    return { state: 'refused', reason: `${fileName} was left as it is because ${document.reason}.` }
  }

  async function current(): Promise<BoardIndex> {
    const entries = await nodeFs.readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return []
      throw error
    })
    const onDisk = new Set(entries.map((entry) => fileNameKey(entry.name)))
    // Temp files start with a dot and files moved aside do not end in .json: only boards are read.
    const names = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json') && !entry.name.startsWith('.')).map((entry) => entry.name)
    for (const known of [...files.keys()]) if (!names.includes(known)) files.delete(known)
    for (const fileName of names.sort()) {
      const stat = await nodeFs.stat(path.join(folder, fileName)).catch(() => null)
      if (stat === null) continue
      const known = files.get(fileName)
      if (known !== undefined && known.mtimeMs === stat.mtimeMs && known.size === stat.size) continue
      const read = await interpret(fileName, stat.size)
      if (read === null) files.delete(fileName)
      else files.set(fileName, { mtimeMs: stat.mtimeMs, size: stat.size, read })
    }
    const byKey = new Map<string, { fileName: string; board: Board }>()
    const refused: FileProblem[] = []
    for (const fileName of [...files.keys()].sort()) {
      const { read } = files.get(fileName) as Loaded
      if (read.state === 'refused') {
        refused.push({ fileName, reason: read.reason })
        continue
      }
      const first = byKey.get(nameKey(read.board.name))
      if (first !== undefined) {
        refused.push({
          fileName,
          reason: `${fileName} was left as it is because ${first.fileName} already holds a board named “${first.board.name}”. Rename one of them.`,
        })
        continue
      }
      byKey.set(nameKey(read.board.name), { fileName, board: read.board })
    }
    return { byKey, refused, onDisk }
  }

  return {
    current,
    async wrote(fileName, board) {
      const stat = await nodeFs.stat(path.join(folder, fileName))
      files.set(fileName, { mtimeMs: stat.mtimeMs, size: stat.size, read: { state: 'ok', board } })
    },
    forget: (fileName) => void files.delete(fileName),
  }
}
