import { promises as fs } from 'node:fs'
import type { z } from 'zod'
import { asideName, writeFileAtomic } from './atomic'

export type JsonFileRead<T> =
  | { state: 'missing' }
  | { state: 'ok'; value: T }
  /** The file could not be parsed or did not match its schema; it was moved to `movedTo`. */
  | { state: 'corrupt'; movedTo: string; reason: string }

/**
 * Read a JSON file against a schema. A file that is not JSON or does not match is moved
 * aside (never deleted, never overwritten) so the user can recover it, and the caller is
 * told so it can report it and start with what it has.
 */
export async function readJsonFile<S extends z.ZodType>(
  filePath: string,
  schema: S,
  now: () => Date = () => new Date(),
): Promise<JsonFileRead<z.output<S>>> {
  let raw: string
  try {
    raw = await fs.readFile(filePath, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' }
    return moveAside(filePath, `it could not be read (${(error as Error).message})`, now())
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    return moveAside(filePath, `it is not valid JSON (${(error as Error).message})`, now())
  }
  const checked = schema.safeParse(parsed)
  if (!checked.success) {
    const first = checked.error.issues[0]
    const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : ''
    return moveAside(filePath, `its content is not what AdOps Desk expects${where}: ${first?.message ?? 'invalid'}`, now())
  }
  return { state: 'ok', value: checked.data }
}

async function moveAside(filePath: string, reason: string, now: Date): Promise<JsonFileRead<never>> {
  const target = asideName(filePath, now)
  await fs.rename(filePath, target)
  return { state: 'corrupt', movedTo: target, reason }
}

/**
 * A JSON file's content, or `fallback` when there is none yet or it was corrupt; a corrupt
 * file is moved aside and `onCorrupt` is told, so the caller can say so in its own words.
 */
export async function readJsonFileOr<S extends z.ZodType>(
  filePath: string,
  schema: S,
  fallback: z.output<S>,
  onCorrupt: (corrupt: { movedTo: string; reason: string }) => void,
  now?: () => Date,
): Promise<z.output<S>> {
  const read = await readJsonFile(filePath, schema, now)
  if (read.state === 'ok') return read.value
  if (read.state === 'corrupt') onCorrupt(read)
  return fallback
}

/** An id (a profile's, say) as one safe file or folder name, whatever characters it holds: no separators, no "..". */
export function safeFileName(id: string): string {
  return encodeURIComponent(id).replace(/\./g, '%2E')
}

export async function writeJsonFile(filePath: string, value: unknown): Promise<void> {
  await writeFileAtomic(filePath, `${JSON.stringify(value, null, 2)}\n`)
}
