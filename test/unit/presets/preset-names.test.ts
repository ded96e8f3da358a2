import { promises as fs } from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { HIDDEN_CHARACTERS_SENTENCE, normalisePresetName, presetNameProblem, presetNameSchema, type Notice } from '@contract'
import { AppError } from '../../../main/services/errors'
import { presetFileText } from '../../../main/services/presets/format'
import { nameKey } from '../../../main/services/presets/names'
import { createPresetStore, type PresetStore } from '../../../main/services/presets/preset-store'
import { temporaryFolder } from '../../support/services'
import { definition } from '../reports/fixtures'

/** Characters that make a name look like another, or like nothing: each is refused with the sentence. */
const hidden: Array<[string, string]> = [
  ['a zero-width space', 'Weekly\u200bEU'],
  ['a zero-width non-joiner', 'Weekly\u200cEU'],
  ['a zero-width joiner', 'Weekly\u200dEU'],
  ['a word joiner', 'Weekly\u2060EU'],
  ['a byte order mark', '\ufeffWeekly EU'],
  ['a soft hyphen', 'Week\u00adly EU'],
  ['a right-to-left override', 'Weekly \u202eUE'],
  ['a left-to-right mark', 'Weekly\u200e EU'],
  ['an Arabic letter mark', 'Weekly\u061c EU'],
  ['a first-strong isolate and its pop', 'Weekly \u2068EU\u2069'],
  ['a C1 control (NEL)', 'Weekly\u0085EU'],
  ['a C1 control (CSI)', 'Weekly\u009bEU'],
  ['DEL', 'Weekly\u007fEU'],
  ['a tab', 'Weekly\tEU'],
  ['a line separator', 'Weekly\u2028EU'],
  ['a Hangul filler', 'Weekly \u3164 EU'],
  ['a combining grapheme joiner', 'Weekly\u034f EU'],
]

/** Spellings that look like "Weekly EU" and are kept as it. */
const lookAlikes = ['Weekly\u00a0EU', ' Weekly EU\u3000', 'Weekly\u2003\u2009EU', 'Weekly  EU', 'Weekly\u202fEU']

describe('the preset name rule (the contract, used by main and the page)', () => {
  it.each(hidden)('refuses %s with a sentence', (_what, name) => {
    const checked = presetNameSchema.safeParse(name)
    expect(checked.success).toBe(false)
    expect(checked.error?.issues.map((issue) => issue.message)).toContain(HIDDEN_CHARACTERS_SENTENCE)
    expect(presetNameProblem(name)).toBe(HIDDEN_CHARACTERS_SENTENCE)
  })

  it.each(lookAlikes)('keeps %j as "Weekly EU"', (name) => {
    expect(presetNameSchema.parse(name)).toBe('Weekly EU')
    expect(normalisePresetName(name)).toBe('Weekly EU')
    expect(presetNameProblem(name)).toBeNull()
  })

  it('composes accents, so the two spellings of "Café" are one name', () => {
    expect(presetNameSchema.parse('Cafe\u0301 report')).toBe('Café report')
    expect(nameKey('CAFE\u0301 REPORT')).toBe(nameKey('café report'))
  })

  it('still asks for a name and bounds its length', () => {
    expect(presetNameProblem(' \u00a0 ')).toBe('Required')
    expect(presetNameSchema.safeParse('\u2003').success).toBe(false)
    expect(presetNameProblem('x'.repeat(121))).toBe('Use at most 120 characters')
    expect(presetNameProblem(`${'x'.repeat(120)}\u00a0\u00a0`)).toBeNull()
    expect(presetNameProblem('Weekly EU 📈 (DE/FR)')).toBeNull()
  })
})

describe('names that normalise to one are one preset', () => {
  let folder: string
  let notices: Array<Omit<Notice, 'id'>>
  const open = (): PresetStore => createPresetStore({ folder, notices: { add: (notice) => (notices.push(notice), { id: '', ...notice }) } })

  beforeEach(async () => {
    folder = path.join(await temporaryFolder('adops-preset-names-'), 'presets')
    notices = []
  })

  it.each(lookAlikes)('\'Save as\' %j over "Weekly EU" is a taken name; saving over it replaces that preset', async (name) => {
    const store = open()
    await store.save({ name: 'Weekly EU', definition: definition() }, false)
    const refused = await store.save({ name, definition: definition({ report: 'other' }) }, false).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppError)
    expect(refused).toMatchObject({ code: 'conflict', message: expect.stringContaining('“Weekly EU” already exists') })
    const replaced = await store.save({ name, definition: definition({ report: 'other' }) }, true)
    expect(replaced.name).toBe('Weekly EU')
    expect((await store.list()).presets.map((preset) => preset.name)).toEqual(['Weekly EU'])
    expect(await fs.readdir(folder)).toEqual(['weekly-eu.json'])
  })

  it("reads a teammate's file with a look-alike name as the same preset, and leaves one with hidden characters where it is, refused", async () => {
    await fs.mkdir(folder, { recursive: true })
    // Written as a teammate's app or editor would, not through our own writer, which normalises.
    const file = (name: string) =>
      presetFileText({ name: 'NAME', description: '', savedAt: '2026-01-01T00:00:00.000Z', definition: definition() }).replace('"NAME"', JSON.stringify(name))
    await fs.writeFile(path.join(folder, 'a.json'), file('Weekly EU'))
    await fs.writeFile(path.join(folder, 'b.json'), file('Weekly\u00a0EU'))
    await fs.writeFile(path.join(folder, 'c.json'), file('Weekly \u202eUE'))
    const { presets, refused } = await open().list()
    expect(presets.map((preset) => preset.name)).toEqual(['Weekly EU'])
    expect(refused).toEqual([
      { fileName: 'b.json', reason: expect.stringContaining('a.json already holds a preset named “Weekly EU”') },
      { fileName: 'c.json', reason: expect.stringContaining('c.json was left as it is because its name holds control or invisible characters') },
    ])
    expect(refused[1]?.reason).not.toContain('\u202e')
    expect(notices).toEqual([])
    expect((await fs.readdir(folder)).sort()).toEqual(['a.json', 'b.json', 'c.json'])
  })
})
