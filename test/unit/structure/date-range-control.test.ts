import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * One date range control (issue 39, item 17): every screen that chooses a date range renders
 * components/common/DateRangeControl.vue, and no other component builds one of its own from a
 * calendar range, the preset list or token boxes. Today the places that choose a range are the
 * Reports builder's Dates and a board's overrides; schedules run a preset's or a board's own
 * dates, and alert rules look back over weeks, so neither chooses one.
 */
const root = path.join(import.meta.dirname, '..', '..', '..')
const CONTROL = 'renderer/src/components/common/DateRangeControl.vue'
const CHOOSERS = ['renderer/src/components/reports/DateRangeField.vue', 'renderer/src/components/boards/BoardOverridesControl.vue']

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return /\.(ts|vue)$/.test(name) ? [full] : []
  })
}
const renderer = sourceFiles(path.join(root, 'renderer/src')).map((file) => path.relative(root, file).split(path.sep).join('/'))
const text = (file: string): string => readFileSync(path.join(root, file), 'utf8')

/** What a hand-made range chooser is built from. */
const PARTS: Array<[string, RegExp]> = [
  ['a calendar range', /type="daterange"/],
  ['the preset list', /\bDATE_RANGE_PRESETS\b|\bdatePresetTokens\b|\bDATE_PRESETS\b/],
  ['a token box for one end', /v-model:value="[\w.]*\.(start|end)"|aria-label': '(From|To) \(date token\)'/],
]

describe('one date range control', () => {
  it.each(CHOOSERS)('%s chooses its range with DateRangeControl', (file) => {
    const source = text(file)
    expect(source).toMatch(/import DateRangeControl from '[./]*\/common\/DateRangeControl\.vue'/)
    expect(source).toMatch(/<DateRangeControl\b/)
  })

  it.each(PARTS)('no component but the control holds %s', (_part, pattern) => {
    const holders = renderer.filter((file) => file !== CONTROL && !file.startsWith('renderer/src/composables/common/') && pattern.test(text(file)))
    expect(holders).toEqual([])
  })
})
