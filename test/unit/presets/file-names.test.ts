import { promises as fs } from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { presetFileText } from '../../../main/services/presets/format'
import { fileNameKey } from '../../../main/services/presets/names'
import { createPresetStore, type PresetStore } from '../../../main/services/presets/preset-store'
import { temporaryFolder } from '../../support/services'
import { definition } from '../reports/fixtures'

/**
 * On macOS and Windows a disk holds one file for "Weekly-EU.json" and "weekly-eu.json". A file a
 * teammate named by hand, pulled from git, must never be the one "Save as" or "Rename" writes
 * over. These run on any OS by checking what makes that safe: the store never creates a file
 * whose name differs from one already in the folder only in case.
 */
let folder: string
const open = (): PresetStore => createPresetStore({ folder, notices: { add: (notice) => ({ id: '', ...notice }) } })

/** A preset file as a teammate might have written it, under a name of their choosing. */
async function teammateFile(fileName: string, name: string, report = 'supply'): Promise<void> {
  await fs.mkdir(folder, { recursive: true })
  await fs.writeFile(
    path.join(folder, fileName),
    presetFileText({ name, description: 'Anna’s', savedAt: '2026-01-01T00:00:00.000Z', definition: definition({ report }) }),
  )
}

async function folderNames(): Promise<string[]> {
  return (await fs.readdir(folder)).sort()
}

/** No two names in the folder are one file on a case-insensitive disk. */
async function expectNoCaseTwins(): Promise<void> {
  const names = await folderNames()
  expect(new Set(names.map(fileNameKey)).size, names.join(', ')).toBe(names.length)
}

beforeEach(async () => {
  folder = path.join(await temporaryFolder('adops-preset-files-'), 'presets')
})

describe('preset files never differ from another only in case', () => {
  it("'Save as' a name whose file would be a teammate's hand-named file in another case writes a file of its own", async () => {
    await teammateFile('Weekly-EU.json', 'EU weekly (Anna)')
    const store = open()
    await store.save({ name: 'Weekly EU', definition: definition({ report: 'mine' }) }, false)
    expect(await folderNames()).toEqual(['Weekly-EU.json', 'weekly-eu-2.json'])
    await expectNoCaseTwins()
    // Both presets are there, each with its own definition.
    expect((await store.get('EU weekly (Anna)')).definition.report).toBe('supply')
    expect((await store.get('Weekly EU')).definition.report).toBe('mine')
  })

  it('keeps clear of any file in the folder, a preset or not, in any case or Unicode spelling', async () => {
    await fs.mkdir(folder, { recursive: true })
    await fs.writeFile(path.join(folder, 'WEEKLY-EU.JSON'), 'notes, not a preset')
    // The Kelvin sign decomposes to K: APFS holds one file for this name and weekly-eu-2.json.
    await teammateFile('WEE\u212aLY-EU-2.json', 'Weekly EU (Kelvin)')
    const store = open()
    await store.save({ name: 'Weekly EU', definition: definition() }, false)
    await store.duplicate('Weekly EU', 'weekly  EU!')
    expect(await folderNames()).toEqual(['WEEKLY-EU.JSON', 'WEE\u212aLY-EU-2.json', 'weekly-eu-3.json', 'weekly-eu-4.json'].sort())
    await expectNoCaseTwins()
    expect(await fs.readFile(path.join(folder, 'WEEKLY-EU.JSON'), 'utf8')).toBe('notes, not a preset')
  })

  it('renaming a preset to another case of its name keeps its hand-named file rather than writing a twin and removing the original', async () => {
    await teammateFile('Weekly-EU.json', 'Weekly EU')
    const store = open()
    await store.rename('Weekly EU', 'weekly eu')
    expect(await folderNames()).toEqual(['Weekly-EU.json'])
    expect((await store.get('WEEKLY EU')).name).toBe('weekly eu')
    await store.rename('weekly eu', 'Weekly-EU')
    expect(await folderNames()).toEqual(['Weekly-EU.json'])
    await expectNoCaseTwins()
  })

  it('compares file names as those disks do', () => {
    expect(fileNameKey('Weekly-EU.json')).toBe(fileNameKey('weekly-eu.JSON'))
    expect(fileNameKey('Café.json')).toBe(fileNameKey('cafe\u0301.json'))
    expect(fileNameKey('ſales.json')).toBe(fileNameKey('sales.json'))
    expect(fileNameKey('weekly-eu.json')).not.toBe(fileNameKey('weekly-eu-2.json'))
  })
})
