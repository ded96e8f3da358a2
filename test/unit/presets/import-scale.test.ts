import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Preset } from '@contract'
import { createFolderDialogs, dialogFolders } from '../../../main/services/files/folder-dialogs'
import { bundleText, presetFileText } from '../../../main/services/presets/format'
import { freeName } from '../../../main/services/presets/names'
import { createPresetStore } from '../../../main/services/presets/preset-store'
import { createPresetTransfer } from '../../../main/services/presets/transfer'
import { temporaryFolder } from '../../support/services'
import { definition as reportDefinition } from '../reports/fixtures'

/** A preset as a team keeps it: a pick of lines, a fixed zone, last month. */
const definition = reportDefinition({
  dates: { start: '-1m_first', end: '-1m_last' },
  timezone: { mode: 'fixed', offset: -5 },
  granularity: 'granularity_day',
  categoryLimit: 10,
  breakdown: ['country'],
  lines: { mode: 'pick', values: ['DE'], includeTotal: false },
})

const presets = (count: number, name: (index: number) => string): Preset[] =>
  Array.from({ length: count }, (_, index) => ({ name: name(index), description: '', savedAt: '2026-01-05T09:00:00.000Z', definition }))

/** Imports a bundle of `bundle` into a store that already holds `saved`, counting the folder listings and file stats the import costs. */
async function importCost(saved: Preset[], bundle: Preset[]): Promise<{ listings: number; stats: number; imported: string[] }> {
  const userData = await temporaryFolder('adops-import-scale-')
  const store = createPresetStore({ folder: path.join(userData, 'presets'), notices: { add: (notice) => ({ id: '', ...notice }) } })
  // Written as a colleague's git pull would leave them; the store reads them at its first look.
  await fs.mkdir(path.join(userData, 'presets'), { recursive: true })
  for (const [index, preset] of saved.entries()) await fs.writeFile(path.join(userData, 'presets', `preset-${index + 1}.json`), presetFileText(preset))
  const { imports } = dialogFolders(userData)
  await fs.mkdir(imports, { recursive: true })
  await fs.writeFile(path.join(imports, 'bundle.json'), bundleText(bundle))
  const transfer = createPresetTransfer(store, createFolderDialogs(userData))
  const readdir = vi.spyOn(fs, 'readdir')
  const stat = vi.spyOn(fs, 'stat')
  try {
    const result = await transfer.import({ replace: false })
    return { listings: readdir.mock.calls.length, stats: stat.mock.calls.length, imported: result.imported.map((preset) => preset.name) }
  } finally {
    readdir.mockRestore()
    stat.mockRestore()
  }
}

afterEach(() => vi.restoreAllMocks())

describe('importing a bundle of presets costs work in proportion to its size (issue 20: 3,000 presets took 42 s)', () => {
  it('lists the presets folder a fixed number of times and stats each file a fixed number of times, however big the bundle', async () => {
    const small = await importCost(
      [],
      presets(25, (index) => `Report ${index}`),
    )
    const large = await importCost(
      [],
      presets(100, (index) => `Report ${index}`),
    )
    expect(large.imported).toHaveLength(100)
    // Before: every preset listed and stat-ed the whole folder again (100 presets: 100 listings, ~5,000 stats).
    expect(large.listings).toBe(small.listings)
    expect(large.stats).toBeLessThanOrEqual(4 * small.stats + 8)
    expect(large.stats).toBeLessThanOrEqual(3 * 100)
  })

  it('stays in proportion when every name is taken and every file name shares one stem', async () => {
    // Names of no ASCII letter: the renamed ones all share the stem "imported" (imported.json, imported-2.json…).
    const name = (index: number) =>
      `日報 ${'〇一二三四五六七八九'[index % 10]}${'〇一二三四五六七八九'[Math.floor(index / 10) % 10]}${'〇一二三四五六七八九'[Math.floor(index / 100)]}`
    const saved = presets(40, name)
    const bundle = presets(40, name).map((preset) => ({ ...preset, description: 'theirs' }))
    const { listings, stats, imported } = await importCost(saved, bundle)
    expect(imported.slice(0, 2)).toEqual([`${name(0)} (imported)`, `${name(1)} (imported)`])
    expect(new Set(imported).size).toBe(40)
    expect(listings).toBeLessThanOrEqual(2)
    expect(stats).toBeLessThanOrEqual(3 * 80)
  })

  it('sees the bundle’s own earlier presets: a name used twice in one bundle is renamed, as across two imports', async () => {
    const twice = [...presets(1, () => 'Weekly'), ...presets(1, () => 'weekly').map((preset) => ({ ...preset, description: 'second' }))]
    expect((await importCost([], twice)).imported).toEqual(['Weekly', 'weekly (imported)'])
  })

  it('a bundle holding one name many times tries each free name once (thousands of copies of one name were quadratic)', async () => {
    const taken = new Set<string>(['Weekly', 'Weekly (imported)'])
    let looks = 0
    const isTaken = (candidate: string) => {
      looks += 1
      return taken.has(candidate)
    }
    const resumeFrom = new Map<string, number>()
    for (let copy = 0; copy < 2_000; copy += 1) {
      const name = freeName('Weekly (imported)', isTaken, (attempt) => `Weekly (imported ${attempt})`, resumeFrom)
      taken.add(name)
    }
    expect(taken.size).toBe(2_002)
    expect(taken.has('Weekly (imported 2001)')).toBe(true)
    // Two looks per copy: the wanted name, then the next free one. Without resuming: ~2 million.
    expect(looks).toBeLessThanOrEqual(2 * 2_000 + 2)
  })

  it('the store renames a bundle of one name used 60 times to distinct names in order', async () => {
    const bundle = presets(60, () => 'Weekly').map((preset, index) => ({ ...preset, description: `copy ${index}` }))
    const { imported } = await importCost(
      presets(1, () => 'Weekly'),
      bundle,
    )
    expect(imported.slice(0, 3)).toEqual(['Weekly (imported)', 'Weekly (imported 2)', 'Weekly (imported 3)'])
    expect(new Set(imported).size).toBe(60)
  })
})
