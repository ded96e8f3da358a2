import path from 'node:path'
import { z } from 'zod'
import { alertRuleSchema, type AlertRule, type PresetRules } from '@contract'
import { createKeyedDocumentStore, noticeOnCorrupt } from '../files/document-store'
import type { Notices } from '../notices'
import { nameKey } from '../presets/names'

/**
 * A preset's alert rules, one versioned JSON file per preset in `<userData>/alerts/rules/`,
 * beside the presets rather than inside their files: a preset file is shared through git and
 * imported by teammates who may not want its alerts, and a rule change must not rewrite (or
 * race with) the preset. The keyed document store gives what presets have: atomic writes, a
 * corrupt file moved aside with a notice, temps of a killed write swept.
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
  const files = createKeyedDocumentStore<typeof rulesFileSchema, readonly [preset: string]>({
    folder: path.join(options.folder, 'rules'),
    schema: rulesFileSchema,
    versioning: { version: RULES_VERSION },
    saveFailed: (code) =>
      `The alert rules could not be saved to disk${code === null ? '' : ` (${code})`}, so the change was not kept. Check the disk and try again.`,
    fallback: ([preset]): RulesFile => ({ version: RULES_VERSION, preset, savedAt: null, rules: [] }),
    onCorrupt: noticeOnCorrupt(
      options.notices,
      'warning',
      ({ key, reason }) =>
        `The alert rules of "${key[0]}" could not be read because ${reason}. The file was moved aside; the preset has no rules until they are saved again.`,
    ),
    now,
  })
  const keyOf = (preset: string) => [nameKey(preset)] as const
  const view = (preset: string, file: RulesFile): PresetRules => ({ preset, rules: file.rules, savedAt: file.savedAt })

  return {
    async read(preset) {
      return view(preset, await files.read(keyOf(preset)))
    },
    async save(preset, rules) {
      const file: RulesFile = { version: RULES_VERSION, preset, savedAt: now().toISOString(), rules: [...rules] }
      await files.write(keyOf(preset), file)
      return view(preset, file)
    },
    async rename(preset, newName) {
      const current = await files.read(keyOf(preset))
      if (current.savedAt === null) return
      await files.write(keyOf(newName), { ...current, preset: newName })
      if (nameKey(preset) !== nameKey(newName)) await files.remove(keyOf(preset))
    },
    remove: (preset) => files.remove(keyOf(preset)),
  }
}
