import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { alertRuleSchema, type AlertRule, type PresetRules } from '@contract'
import { MAX_FILE_NAME_BYTES } from '../files/atomic'
import { createKeyedDocumentStore, noticeOnCorrupt } from '../files/document-store'
import { readJsonFile } from '../files/json-file'
import type { Notices } from '../notices'
import { fileStem, nameKey } from '../presets/names'

/**
 * A preset's alert rules, one versioned JSON file per preset in `<userData>/alerts/rules/`,
 * beside the presets rather than inside their files: a preset file is shared through git and
 * imported by teammates who may not want its alerts, and a rule change must not rewrite (or
 * race with) the preset. The keyed document store gives what presets have: atomic writes, a
 * corrupt file moved aside with a notice, temps of a killed write swept.
 *
 * A file is named as preset files are (`fileStem`: readable ASCII, at most 60 characters) plus
 * a digest of the name key, so names of no ASCII letter (all "preset") and long CJK names each
 * get a short file of their own. Files saved under the earlier names (the percent-encoded name
 * key, 9 bytes a CJK character) are still read, and move to the new name when first read.
 */
export interface RuleStore {
  read(preset: string): Promise<PresetRules>
  save(preset: string, rules: readonly AlertRule[]): Promise<PresetRules>
  /** A renamed preset keeps its rules; a deleted one loses them. */
  rename(preset: string, newName: string): Promise<void>
  remove(preset: string): Promise<void>
}

export const RULES_VERSION = 1
const rulesFileSchema = z.object({
  version: z.literal(RULES_VERSION),
  preset: z.string(),
  savedAt: z.string().nullable(),
  rules: z.array(alertRuleSchema),
})
type RulesFile = z.infer<typeof rulesFileSchema>

export const alertsFolder = (userDataDir: string): string => path.join(userDataDir, 'alerts')

export function createRuleStore(options: { folder: string; notices: Pick<Notices, 'add'>; now?: () => Date }): RuleStore {
  const now = options.now ?? (() => new Date())
  /** The name key each file stem was asked for by, so a notice names the preset, not its file. */
  const namesByStem = new Map<string, string>()
  const files = createKeyedDocumentStore<typeof rulesFileSchema, readonly [preset: string]>({
    folder: path.join(options.folder, 'rules'),
    schema: rulesFileSchema,
    versioning: { version: RULES_VERSION },
    saveFailed: (code) =>
      code === 'ENAMETOOLONG'
        ? 'The alert rules could not be saved: the path to the data folder is too long for the disk (a file name holds at most 255 bytes, a path about 4,000). Move the data folder to a shorter path and try again.'
        : `The alert rules could not be saved to disk${code === null ? '' : ` (${code})`}, so the change was not kept. Check the disk and try again.`,
    fallback: ([stem]): RulesFile => ({ version: RULES_VERSION, preset: namesByStem.get(stem) ?? stem, savedAt: null, rules: [] }),
    onCorrupt: noticeOnCorrupt(
      options.notices,
      'warning',
      ({ key, reason }) =>
        `The alert rules of "${namesByStem.get(key[0]) ?? key[0]}" could not be read because ${reason}. The file was moved aside; the preset has no rules until they are saved again.`,
    ),
    now,
  })
  function keyOf(preset: string): readonly [string] {
    const stem = rulesFileStem(preset)
    namesByStem.set(stem, nameKey(preset))
    return [stem]
  }
  const view = (preset: string, file: RulesFile): PresetRules => ({ preset, rules: file.rules, savedAt: file.savedAt })
  const rulesFolder = path.join(options.folder, 'rules')

  /** The preset's rules file under the earlier name, when that name fits a file system at all. */
  function earlierFile(preset: string): string | null {
    const fileName = `${encodeURIComponent(nameKey(preset)).replace(/\./g, '%2E')}.json`
    return Buffer.byteLength(fileName) <= MAX_FILE_NAME_BYTES ? path.join(rulesFolder, fileName) : null
  }

  /** Stems whose earlier file was looked for already: this version never writes one, so once is enough. */
  const earlierLookedFor = new Set<string>()

  /** The preset's file; one saved under the earlier name is moved to the new one (written there, then removed). */
  async function readFile(preset: string): Promise<RulesFile> {
    const key = keyOf(preset)
    const current = await files.read(key)
    const earlier = earlierFile(preset)
    if (current.savedAt !== null || earlier === null || earlierLookedFor.has(key[0])) return current
    earlierLookedFor.add(key[0])
    const read = await readJsonFile(earlier, rulesFileSchema, now, { version: RULES_VERSION })
    if (read.state === 'corrupt') {
      options.notices.add({
        level: 'warning',
        message: `The alert rules of "${preset}" could not be read because ${read.reason}. The file was moved aside; the preset has no rules until they are saved again.`,
        details: { movedTo: read.movedTo },
      })
    }
    if (read.state !== 'ok') return current
    await files.write(key, read.value)
    await fs.rm(earlier, { force: true })
    return read.value
  }

  async function remove(preset: string): Promise<void> {
    await files.remove(keyOf(preset))
    const earlier = earlierFile(preset)
    if (earlier !== null) await fs.rm(earlier, { force: true })
  }

  return {
    async read(preset) {
      return view(preset, await readFile(preset))
    },
    async save(preset, rules) {
      const file: RulesFile = { version: RULES_VERSION, preset, savedAt: now().toISOString(), rules: [...rules] }
      await files.write(keyOf(preset), file)
      return view(preset, file)
    },
    async rename(preset, newName) {
      const current = await readFile(preset)
      if (current.savedAt === null) return
      await files.write(keyOf(newName), { ...current, preset: newName })
      if (nameKey(preset) !== nameKey(newName)) await remove(preset)
    },
    remove,
  }
}

/** A rules file's stem: the preset file's readable stem, then 12 hex digits of the name key's digest (two names, two files). */
function rulesFileStem(preset: string): string {
  const digest = createHash('sha256').update(nameKey(preset)).digest('hex').slice(0, 12)
  return `${fileStem(preset)}-${digest}`
}
