import { z } from 'zod'
import { hasHiddenCharacters } from '@contract'

/**
 * The reading rule every versioned, human-readable file shares (presets, boards): a JSON object
 * with a whole-number `version`; older formats migrated step by step, newer ones refused with a
 * sentence (never rewritten by an older app); a name holding hidden characters left where it is
 * (a teammate's file in a shared folder: moving it would show in git as a deletion). Each store
 * then checks the migrated object against its own schema. Reasons end a sentence that starts
 * "…could not be read because".
 */

/** One step per format, from the format it reads to the next one. */
export type DocumentMigrations = Readonly<Record<number, (raw: Record<string, unknown>) => unknown>>

/** `newer` and `hidden` are left where they are (listed as refused); `invalid` is moved aside. */
export type DocumentRefusal = { state: 'newer'; reason: string } | { state: 'hidden'; reason: string } | { state: 'invalid'; reason: string }

export function migrateDocument(
  parsed: unknown,
  { format, migrations, noun }: { format: number; migrations: DocumentMigrations; noun: string },
): { state: 'migrated'; document: Record<string, unknown> } | DocumentRefusal {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { state: 'invalid', reason: 'it does not hold a JSON object' }
  let current = parsed as Record<string, unknown>
  let version = current.version
  if (typeof version !== 'number' || !Number.isInteger(version)) return { state: 'invalid', reason: 'it has no format "version"' }
  if (version > format) {
    return {
      state: 'newer',
      reason: `it was saved by a newer version of AdOps Desk (${noun} format ${version}; this version reads up to ${format}). Update AdOps Desk to open it`,
    }
  }
  while (version < format) {
    const step = migrations[version]
    if (step === undefined) return { state: 'invalid', reason: `its format ${version} is not one AdOps Desk ever wrote` }
    try {
      const next = step(current)
      if (typeof next !== 'object' || next === null) throw new Error('the migration gave no object')
      current = next as Record<string, unknown>
    } catch (error) {
      return { state: 'invalid', reason: `it could not be brought up to date from format ${version} (${firstIssue(error)})` }
    }
    version += 1
  }
  // The name itself is not quoted: it is what hides.
  if (typeof current.name === 'string' && hasHiddenCharacters(current.name)) {
    return {
      state: 'hidden',
      reason: 'its name holds control or invisible characters (tabs, line breaks, zero-width spaces, text-direction marks). Retype the name in the file',
    }
  }
  return { state: 'migrated', document: current }
}

/** A schema's first complaint as a short phrase: "definition.dates.start: Required". */
export function describeIssue(error: z.ZodError): string {
  const first = error.issues[0]
  if (first === undefined) return 'invalid'
  return `${first.path.length > 0 ? `${first.path.join('.')}: ` : ''}${first.message}`
}

function firstIssue(error: unknown): string {
  return error instanceof z.ZodError ? describeIssue(error) : error instanceof Error ? error.message : String(error)
}
