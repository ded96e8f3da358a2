import { promises as fs } from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { defaultDefinitionParts } from '../../../common/definition'
import { presetFileText, readImportText, readPresetDocument } from '../../../main/services/presets/format'
import { createPresetStore, type PresetStore } from '../../../main/services/presets/preset-store'
import { temporaryFolder } from '../../support/services'

/**
 * Issue 39, item 4: the demo's seed saved `granularity: 'day'` (the spec's short example form),
 * which the builder reads as a key field ("Top 30", a category chart). A preset holding a short
 * time granularity reads as the contract's long key; its file is rewritten only when saved again.
 */
const definition = {
  ...defaultDefinitionParts(),
  project: 'demo',
  report: 'supply',
  metrics: ['impressions'],
  breakdown: ['publisher'],
  filters: [],
  filterLogic: '',
  metricConditions: [],
  metricConditionLogic: '',
  sort: [],
}
const fileWith = (granularity: string) => ({
  version: 1,
  name: 'Publishers — daily impressions',
  description: '',
  savedAt: '2026-12-01T08:00:00.000Z',
  definition: { ...definition, granularity },
})

let folder: string
const open = (): PresetStore =>
  createPresetStore({ folder, notices: { add: (notice) => ({ id: '', ...notice }) }, now: () => new Date('2026-12-07T09:00:00Z') })

beforeEach(async () => {
  folder = path.join(await temporaryFolder('adops-presets-'), 'presets')
})

describe('a preset holding a short granularity', () => {
  it.each([
    ['hour', 'granularity_hour'],
    ['day', 'granularity_day'],
    ['week', 'granularity_week'],
    ['month', 'granularity_month'],
    ['quarter', 'granularity_quarter'],
    ['year', 'granularity_year'],
  ])('reads %s as %s', (short, long) => {
    const read = readPresetDocument(fileWith(short))
    expect(read.state === 'ok' && read.preset.definition.granularity).toBe(long)
  })

  it('keeps the long keys, auto and key fields as they are', () => {
    for (const granularity of ['granularity_day', 'auto', 'publisher', 'country']) {
      const read = readPresetDocument(fileWith(granularity))
      expect(read.state === 'ok' && read.preset.definition.granularity).toBe(granularity)
    }
  })

  it('is read with the long key from its folder, and its file is rewritten only when saved again', async () => {
    await fs.mkdir(folder, { recursive: true })
    const original = `${JSON.stringify(fileWith('day'), null, 2)}\n`
    const file = path.join(folder, 'publishers-daily.json')
    await fs.writeFile(file, original)
    const store = open()
    const preset = await store.get('Publishers — daily impressions')
    expect(preset.definition.granularity).toBe('granularity_day')
    expect(await fs.readFile(file, 'utf8')).toBe(original)
    await store.save({ name: preset.name, definition: preset.definition, description: preset.description }, true)
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ version: 1, definition: { granularity: 'granularity_day' } })
  })

  it('is imported with the long key, alone or in a bundle', () => {
    const alone = readImportText(JSON.stringify(fileWith('week')))
    expect('presets' in alone && alone.presets[0]?.definition.granularity).toBe('granularity_week')
    const read = readPresetDocument(fileWith('month'))
    if (read.state !== 'ok') throw new Error(read.reason)
    const bundle = readImportText(
      JSON.stringify({
        format: 'adopsdesk-presets',
        version: 1,
        presets: [JSON.parse(presetFileText({ ...read.preset, definition: { ...read.preset.definition, granularity: 'month' } }))],
      }),
    )
    expect('presets' in bundle && bundle.presets[0]?.definition.granularity).toBe('granularity_month')
  })
})
