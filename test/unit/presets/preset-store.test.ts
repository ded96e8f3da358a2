import { promises as fs } from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Notice, ReportDefinition } from '@contract'
import { AppError } from '../../../main/services/errors'
import { createFolderDialogs, dialogFolders } from '../../../main/services/files/folder-dialogs'
import { migrateFormatZero, presetFileText, readPresetDocument } from '../../../main/services/presets/format'
import { fileStem } from '../../../main/services/presets/names'
import { createPresetStore, type PresetStore } from '../../../main/services/presets/preset-store'
import { createPresetTransfer } from '../../../main/services/presets/transfer'
import { temporaryFolder } from '../../support/services'

/** Every field of a definition away from its default, so a field lost on the way shows. */
const everyField: ReportDefinition = {
  project: 'demo',
  report: 'supply',
  dates: { start: '-1m_first', end: '-1m_last' },
  timezone: { mode: 'fixed', offset: -5 },
  metrics: ['impressions', 'revenue', 'ctr'],
  granularity: 'granularity_week',
  categoryLimit: 250,
  breakdown: ['country', 'device_type'],
  lines: { mode: 'pick', values: ['DE\u0002mobile', 'FR\u0002desktop'], includeTotal: false },
  filters: [
    { key: 'publisher', match: 'not begins with', values: ['test', 'qa'], caseInsensitive: true, searchNames: true },
    { key: 'domain', match: 'ends with', values: ['.de'], caseInsensitive: false, searchNames: false },
  ],
  filterLogic: '1 or 2',
  metricConditions: [{ metric: 'impressions', match: '>=', value: '100' }],
  metricConditionLogic: '1',
  sort: [{ field: 'revenue', direction: 'DESC', byName: true }],
  comparison: 'previous_year',
  chart: {
    type: 'stacked',
    hidden: ['revenue|DE\u0002mobile'],
    showMarkers: false,
    // The Pivot tab's layout (issue 24): optional, so presets saved before it stay valid (format 0's tests read them).
    pivot: {
      rows: ['country', 'device_type'],
      columns: ['@time'],
      values: [
        { field: 'revenue', aggregate: 'sum' },
        { field: 'ctr', aggregate: 'avg' },
      ],
      sort: { by: 'change', value: 0, column: ['2026-01-05'], measure: 'percent', direction: 'asc' },
      top: 20,
      subtotals: true,
      showChange: true,
    },
  },
  audience: { source: 'users', rowsLimit: 5_000_000, breakdown: ['country'] },
}

let folder: string
let notices: Notice[]
let clock: number
const now = () => new Date(Date.UTC(2026, 0, 5, 9, 0, clock++))
const open = (): PresetStore =>
  createPresetStore({ folder, notices: { add: (notice) => (notices.push({ id: String(notices.length), ...notice }), { id: '', ...notice }) }, now })

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected a failure')
}

beforeEach(async () => {
  folder = path.join(await temporaryFolder('adops-presets-'), 'presets')
  notices = []
  clock = 0
})

describe('a preset on disk', () => {
  it('round-trips every field of the definition through a new store over the same folder', async () => {
    const saved = await open().save({ name: 'Weekly EU: revenue', definition: everyField, description: 'Monday call' }, false)
    const again = await open().get('weekly eu: REVENUE')
    expect(again).toEqual(saved)
    expect(again.definition).toEqual(everyField)
    expect(again).toEqual({ name: 'Weekly EU: revenue', description: 'Monday call', savedAt: '2026-01-05T09:00:00.000Z', definition: everyField })
  })

  it('is written in one stable shape: key order, two spaces, a final newline, a readable file name', async () => {
    // The same definition built with its keys in another order.
    const shuffled = Object.fromEntries(Object.entries(everyField).reverse()) as ReportDefinition
    await open().save({ name: 'Weekly EU: revenue', definition: shuffled, description: '' }, false)
    const text = await fs.readFile(path.join(folder, 'weekly-eu-revenue.json'), 'utf8')
    expect(text).toBe(presetFileText({ name: 'Weekly EU: revenue', description: '', savedAt: '2026-01-05T09:00:00.000Z', definition: everyField }))
    expect(text.endsWith('}\n')).toBe(true)
    expect(text.split('\n').slice(0, 6)).toEqual([
      '{',
      '  "version": 1,',
      '  "name": "Weekly EU: revenue",',
      '  "description": "",',
      '  "savedAt": "2026-01-05T09:00:00.000Z",',
      '  "definition": {',
    ])
    expect(Object.keys((JSON.parse(text) as { definition: object }).definition)).toEqual(Object.keys(everyField))
  })

  it('names files safely and distinctly, whatever the name', () => {
    expect(fileStem('Weekly EU: revenue')).toBe('weekly-eu-revenue')
    expect(fileStem('../../etc/passwd')).toBe('etc-passwd')
    expect(fileStem('Отчёт')).toBe('preset')
    expect(fileStem('Café à la carte')).toBe('cafe-a-la-carte')
    expect(fileStem('CON')).toBe('con-preset')
    expect(fileStem('x'.repeat(300))).toHaveLength(60)
  })

  it('gives two names with one file stem two files', async () => {
    const store = open()
    await store.save({ name: 'A/B', definition: everyField }, false)
    await store.save({ name: 'A B', definition: { ...everyField, project: 'other' } }, false)
    expect((await fs.readdir(folder)).sort()).toEqual(['a-b-2.json', 'a-b.json'])
    expect((await open().get('A B')).definition.project).toBe('other')
  })
})

describe('names', () => {
  it('are unique without regard to case: Save as refuses, Save replaces', async () => {
    const store = open()
    await store.save({ name: 'Weekly EU', definition: everyField, description: 'first' }, false)
    const refused = await failure(store.save({ name: 'weekly eu', definition: everyField }, false))
    expect(refused.code).toBe('conflict')
    expect(refused.message).toBe('A preset named “Weekly EU” already exists. Choose another name, or save over it.')
    const replaced = await store.save({ name: 'Weekly EU', definition: { ...everyField, comparison: 'none' } }, true)
    // Saving over keeps the description the save did not give.
    expect(replaced.description).toBe('first')
    expect((await store.list()).presets.map((preset) => preset.name)).toEqual(['Weekly EU'])
  })

  it('rename moves the file; a case-only rename is allowed; a taken name is not', async () => {
    const store = open()
    await store.save({ name: 'Weekly EU', definition: everyField }, false)
    await store.save({ name: 'Daily', definition: everyField }, false)
    await store.rename('weekly eu', 'Weekly EU revenue')
    expect((await fs.readdir(folder)).sort()).toEqual(['daily.json', 'weekly-eu-revenue.json'])
    expect((await store.rename('daily', 'DAILY')).name).toBe('DAILY')
    expect((await failure(store.rename('DAILY', 'weekly eu REVENUE'))).code).toBe('conflict')
    expect((await failure(store.get('Weekly EU'))).code).toBe('not_found')
  })

  it('duplicate picks "copy", "copy 2"…', async () => {
    const store = open()
    await store.save({ name: 'Weekly', definition: everyField, description: 'd' }, false)
    expect((await store.duplicate('Weekly')).name).toBe('Weekly copy')
    const second = await store.duplicate('weekly')
    expect(second).toMatchObject({ name: 'Weekly copy 2', description: 'd', definition: everyField })
  })

  it('delete can be undone within the session, and not over a preset that took the name since', async () => {
    const store = open()
    await store.save({ name: 'Weekly', definition: everyField, description: 'keep me' }, false)
    expect(await store.delete('WEEKLY')).toEqual({ name: 'Weekly' })
    expect((await store.list()).presets).toEqual([])
    expect(await fs.readdir(folder)).toEqual([])
    const restored = await store.restore('weekly')
    expect(restored).toMatchObject({ name: 'Weekly', description: 'keep me', definition: everyField })
    expect((await open().get('Weekly')).description).toBe('keep me')

    await store.delete('Weekly')
    await store.save({ name: 'weekly', definition: everyField }, false)
    expect((await failure(store.restore('Weekly'))).code).toBe('conflict')
    expect((await failure(store.restore('never deleted'))).code).toBe('not_found')
  })
})

describe('files that are not presets of this version', () => {
  it('a corrupt file is moved aside with a notice, and nothing else is lost', async () => {
    const store = open()
    await store.save({ name: 'Good', definition: everyField }, false)
    await fs.writeFile(path.join(folder, 'broken.json'), '{"version": 1, "name": ')
    await fs.writeFile(
      path.join(folder, 'wrong.json'),
      JSON.stringify({ version: 1, name: 'Wrong', description: '', savedAt: 'x', definition: { project: 'p' } }),
    )
    const listed = await open().list()
    expect(listed.presets.map((preset) => preset.name)).toEqual(['Good'])
    expect(listed.refused).toEqual([])
    const files = (await fs.readdir(folder)).sort()
    expect(files).toHaveLength(3)
    expect(files.filter((name) => name.startsWith('broken.json.corrupt-'))).toHaveLength(1)
    expect(files.filter((name) => name.startsWith('wrong.json.corrupt-'))).toHaveLength(1)
    expect(notices.map((notice) => notice.message)).toEqual([
      expect.stringMatching(
        /^The preset file broken\.json could not be read because it is not valid JSON \(.+\)\. It was moved aside as broken\.json\.corrupt-.+; your other presets are fine\.$/,
      ),
      expect.stringMatching(/^The preset file wrong\.json could not be read because its content is not a preset: definition\.report: .+/),
    ])
  })

  it('a file from a newer version is refused with a sentence and left untouched', async () => {
    const newer = `${JSON.stringify({ version: 2, name: 'From the future', savedAt: '2030-01-01T00:00:00.000Z', spec: { anything: true } }, null, 2)}\n`
    await fs.mkdir(folder, { recursive: true })
    await fs.writeFile(path.join(folder, 'future.json'), newer)
    const store = open()
    const listed = await store.list()
    expect(listed.presets).toEqual([])
    expect(listed.refused).toEqual([
      {
        fileName: 'future.json',
        reason:
          'future.json was left as it is because it was saved by a newer version of AdOps Desk (preset format 2; this version reads up to 1). Update AdOps Desk to open it.',
      },
    ])
    expect(await fs.readFile(path.join(folder, 'future.json'), 'utf8')).toBe(newer)
    expect(notices).toEqual([])
    expect((await failure(store.get('From the future'))).code).toBe('not_found')
  })

  it('two files holding one name: the first is used, the other is listed as refused', async () => {
    await fs.mkdir(folder, { recursive: true })
    const text = presetFileText({ name: 'Twin', description: '', savedAt: '2026-01-01T00:00:00.000Z', definition: everyField })
    await fs.writeFile(path.join(folder, 'a.json'), text)
    await fs.writeFile(path.join(folder, 'b.json'), text.replace('"Twin"', '"TWIN"'))
    const listed = await open().list()
    expect(listed.presets.map((preset) => preset.name)).toEqual(['Twin'])
    expect(listed.refused).toEqual([
      { fileName: 'b.json', reason: 'b.json was left as it is because a.json already holds a preset named “Twin”. Rename one of them.' },
    ])
  })

  it('picks up files added and changed while the app runs (a git pull), and keeps a hand-chosen file name when saving over it', async () => {
    const store = open()
    expect((await store.list()).presets).toEqual([])
    await fs.mkdir(folder, { recursive: true })
    await fs.writeFile(
      path.join(folder, 'Team Report.json'),
      presetFileText({ name: 'Team report', description: 'from git', savedAt: '2026-01-01T00:00:00.000Z', definition: everyField }),
    )
    expect((await store.list()).presets.map((preset) => preset.description)).toEqual(['from git'])
    await store.save({ name: 'team report', definition: everyField, description: 'mine' }, true)
    expect(await fs.readdir(folder)).toEqual(['Team Report.json'])
    expect((await store.get('Team report')).description).toBe('mine')
  })
})

describe('opening one preset', () => {
  it('reads only its own file when that is unchanged, and the folder again when it changed or went', async () => {
    const store = open()
    await store.save({ name: 'Weekly', definition: everyField }, false)
    await store.save({ name: 'Daily', definition: everyField }, false)
    await store.list()
    // Another file broken behind the app's back is not even looked at to open this one.
    await fs.writeFile(path.join(folder, 'daily.json'), '{ broken')
    expect((await store.get('weekly')).name).toBe('Weekly')
    expect(notices).toEqual([])
    // Its own file edited (a git pull): read again, and the folder with it.
    const file = path.join(folder, 'weekly.json')
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('"description": ""', '"description": "from git"'))
    expect((await store.get('Weekly')).description).toBe('from git')
    expect(notices.map((notice) => notice.message)).toEqual([expect.stringMatching(/^The preset file daily\.json could not be read/)])
    await fs.rm(file)
    await expect(store.get('Weekly')).rejects.toThrow(/There is no preset named “Weekly”/)
  })
})

describe('format migrations', () => {
  const formatZero = {
    version: 0,
    name: 'Old weekly',
    savedAt: '2025-03-01T10:00:00.000Z',
    definition: {
      project: 'demo',
      report: 'supply',
      dates: { from: '-7d', to: 'yesterday' },
      timezone: 2,
      metric: 'impressions',
      granularity: 'granularity_day',
      breakdown: ['country'],
      lines: { top: 5, total: true },
      filters: [{ key: 'country', match: 'not equals', values: ['US'], caseInsensitive: true }],
      filterLogic: '1',
      conditions: [{ metric: 'impressions', match: '>', value: 10 }],
      sort: { field: 'impressions', direction: 'desc' },
      chart: 'area',
    },
  }

  it("format 0 → 1: dates {from,to}, one metric, a numeric timezone and the draft's lines and sort", () => {
    const read = readPresetDocument(formatZero)
    expect(read).toEqual({
      state: 'ok',
      preset: {
        name: 'Old weekly',
        description: '',
        savedAt: '2025-03-01T10:00:00.000Z',
        definition: {
          project: 'demo',
          report: 'supply',
          dates: { start: '-7d', end: 'yesterday' },
          timezone: { mode: 'fixed', offset: 2 },
          metrics: ['impressions'],
          granularity: 'granularity_day',
          categoryLimit: 30,
          breakdown: ['country'],
          lines: { mode: 'top', count: 5, by: null, includeTotal: true },
          filters: [{ key: 'country', match: 'not equals', values: ['US'], caseInsensitive: true, searchNames: false }],
          filterLogic: '1',
          metricConditions: [{ metric: 'impressions', match: '>', value: '10' }],
          metricConditionLogic: '',
          sort: [{ field: 'impressions', direction: 'DESC', byName: false }],
          comparison: 'none',
          chart: { type: 'area', hidden: [], showMarkers: true },
          audience: { source: null, rowsLimit: 1_000_000, breakdown: [] },
        },
      },
    })
  })

  it("format 0 with the report's timezone, picked lines and nothing optional", () => {
    const minimal = {
      ...formatZero,
      definition: {
        ...formatZero.definition,
        timezone: null,
        lines: { values: ['DE', 'FR'], total: false },
        filterLogic: undefined,
        conditions: undefined,
        sort: null,
        chart: undefined,
      },
    }
    const migrated = migrateFormatZero(JSON.parse(JSON.stringify(minimal))) as { definition: ReportDefinition }
    expect(migrated.definition).toMatchObject({
      timezone: { mode: 'report' },
      lines: { mode: 'pick', values: ['DE', 'FR'], includeTotal: false },
      filterLogic: '',
      metricConditions: [],
      sort: [],
      chart: { type: 'line' },
    })
  })

  it('a format 0 file is read as format 1 and left as it was until saved again', async () => {
    await fs.mkdir(folder, { recursive: true })
    const original = JSON.stringify(formatZero, null, 2)
    await fs.writeFile(path.join(folder, 'old.json'), original)
    const store = open()
    expect((await store.get('old weekly')).definition.metrics).toEqual(['impressions'])
    expect(await fs.readFile(path.join(folder, 'old.json'), 'utf8')).toBe(original)
    await store.save({ name: 'Old weekly', definition: (await store.get('Old weekly')).definition }, true)
    expect(JSON.parse(await fs.readFile(path.join(folder, 'old.json'), 'utf8'))).toMatchObject({ version: 1, name: 'Old weekly' })
  })

  it('a format 0 file that does not match format 0 is moved aside with the reason', async () => {
    const read = readPresetDocument({ ...formatZero, definition: { ...formatZero.definition, metric: 42 } })
    expect(read).toEqual({ state: 'invalid', reason: expect.stringMatching(/^it could not be brought up to date from format 0 \(definition\.metric: /) })
  })

  it('a file without a version, or with a version never written, is not a preset', () => {
    expect(readPresetDocument({ name: 'x' })).toEqual({ state: 'invalid', reason: 'it has no format "version"' })
    expect(readPresetDocument({ version: -1 })).toEqual({ state: 'invalid', reason: 'its format -1 is not one AdOps Desk ever wrote' })
  })
})

describe("import and export through the dialogs main opens (the web host's folders)", () => {
  it('exports one preset as its file and several as a bundle, never overwriting; imports them back', async () => {
    const userData = path.dirname(folder)
    const store = open()
    const dialogs = createFolderDialogs(userData)
    const transfer = createPresetTransfer(store, dialogs)
    await store.save({ name: 'Weekly EU', definition: everyField, description: 'd' }, false)
    await store.save({ name: 'Daily', definition: { ...everyField, comparison: 'none' } }, false)

    expect(await transfer.export(['weekly eu'])).toEqual({ saved: true, fileName: 'weekly-eu.json', count: 1 })
    expect(await transfer.export(['Weekly EU'])).toEqual({ saved: true, fileName: 'weekly-eu (2).json', count: 1 })
    expect(await transfer.export(['Weekly EU', 'Daily'])).toEqual({ saved: true, fileName: 'adopsdesk-presets.json', count: 2 })
    const { exports, imports } = dialogFolders(userData)
    expect(await fs.readFile(path.join(exports, 'weekly-eu.json'), 'utf8')).toBe(await fs.readFile(path.join(folder, 'weekly-eu.json'), 'utf8'))

    // Nothing to import yet: the folder is made, and the import is "cancelled".
    expect(await transfer.import({ replace: false })).toEqual({ cancelled: true, imported: [], skipped: [] })
    await fs.copyFile(path.join(exports, 'adopsdesk-presets.json'), path.join(imports, 'bundle.json'))
    const changed = JSON.parse(await fs.readFile(path.join(exports, 'weekly-eu.json'), 'utf8')) as { description: string }
    changed.description = 'changed by a colleague'
    await fs.writeFile(path.join(imports, 'weekly.json'), JSON.stringify(changed))
    await fs.writeFile(path.join(imports, 'notes.json'), '{"hello": "world"}')
    await fs.writeFile(path.join(imports, 'readme.txt'), 'not offered: not a .json file')

    const result = await transfer.import({ replace: false })
    expect(result.cancelled).toBe(false)
    // The bundle's two are identical to the saved ones (left as they are); the changed one is added beside.
    expect(result.imported.map((preset) => preset.name)).toEqual(['Weekly EU', 'Daily', 'Weekly EU (imported)'])
    expect(result.skipped).toEqual([{ fileName: 'notes.json', reason: 'notes.json could not be imported because it has no format "version".' }])
    expect((await store.list()).presets.map((preset) => preset.name)).toEqual(['Daily', 'Weekly EU', 'Weekly EU (imported)'])
    expect((await store.get('Weekly EU (imported)')).description).toBe('changed by a colleague')

    const replacing = await transfer.import({ replace: true })
    expect(replacing.imported.map((preset) => preset.name)).toEqual(['Weekly EU', 'Daily', 'Weekly EU'])
    expect((await store.get('Weekly EU')).description).toBe('changed by a colleague')
  })

  it('a cancelled save dialog writes nothing', async () => {
    const store = open()
    await store.save({ name: 'Weekly', definition: everyField }, false)
    const transfer = createPresetTransfer(store, { chooseSavePath: async () => null, chooseOpenPaths: async () => [] })
    expect(await transfer.export(['Weekly'])).toEqual({ saved: false, fileName: null, count: 0 })
  })
})
