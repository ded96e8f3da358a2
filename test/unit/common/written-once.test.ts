import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { reportDefinitionSchema } from '@contract'
import { defaultDefinitionParts } from '../../../common/definition'
import { formatBytes } from '../../../common/format'
import { REPORT_LIMITS } from '../../../common/limits'
import { defaultDefinitionParts as pasteDefaults } from '../../../main/services/presets/paste'
import { formatBytes as exportFormatBytes } from '../../../main/services/exports/failures'
import { formatBytes as panelFormatBytes } from '../../../renderer/src/domain/exports/progress'
import { defaultDefinition } from '../../../renderer/src/domain/reports/definition'
import { infoView } from '../reports/fixtures'

/**
 * Each rule of the platform is written once, in common/. These checks fail when a copy comes
 * back: a second definition of a shared function, the total line's name or the separator as a
 * literal, the time keys listed again, or a report limit as a bare number where it is enforced.
 * The demo backend (main/sandbox) keeps its copies on purpose (see sandbox-agrees.test.ts).
 */
const root = path.join(import.meta.dirname, '..', '..', '..')

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return /\.(ts|vue)$/.test(name) && !name.endsWith('.d.ts') ? [full] : []
  })
}

/** The app's own code outside common/ and the demo backend, as [relative path, text]. */
const outside: Array<[string, string]> = ['main', 'preload', 'renderer/src']
  .flatMap((folder) => sourceFiles(path.join(root, folder)))
  .map((file) => path.relative(root, file).replaceAll('\\', '/'))
  .filter((file) => !file.startsWith('main/sandbox/'))
  .map((file) => [file, readFileSync(path.join(root, file), 'utf8')])

const text = (file: string): string => readFileSync(path.join(root, file), 'utf8')

/**
 * Where `pattern` occurs outside common/ and the demo backend. A preset migration is left out on
 * purpose: it writes what an old file meant when it was written, which must not follow today's defaults.
 */
const frozen = new Set(['main/services/presets/format.ts'])
function copiesOf(pattern: RegExp): string[] {
  return outside.filter(([file, source]) => !frozen.has(file) && pattern.test(source)).map(([file]) => file)
}

describe('each rule of the platform is written once (common/)', () => {
  it.each([
    ['formatBytes', /function formatBytes\b/],
    ['describeThrown', /function describeThrown\b/],
    ['suggestGranularity', /function suggestGranularity\b/],
    ['timeGranularityOf', /function timeGranularityOf\b/],
    ['the time keys', /\[\s*'hour',\s*'day',\s*'week'/],
    ['the total line', /['"]__total__['"]/],
    ['the line separator', /['"]\\u0002['"]|['"]\\x02['"]/],
    ['BuilderField', /type BuilderField\s*=\s*[|'E]/],
    ['the default dates', /dates:\s*\{\s*start:\s*'-7d'/],
    ['the default rows limit', /rowsLimit:\s*1_000_000/],
  ])('%s is defined in common/ only', (_rule, pattern) => {
    expect(copiesOf(pattern)).toEqual([])
  })

  it('finds a copy when there is one (the check itself works)', () => {
    expect(copiesOf(/export \{ formatBytes \}/).length).toBeGreaterThan(0)
  })

  it("builds the contract's report bounds from common/'s limits, not bare numbers", () => {
    for (const file of ['preload/contract/report-definition.ts', 'preload/contract/reports.ts', 'preload/contract/exports.ts']) {
      const source = text(file)
      expect(source, file).not.toMatch(/\.max\((?:5|8|10|50|10_000|10_000_000)\)/)
      expect(source, file).not.toMatch(/\.min\(10_000\)/)
      expect(source, file).not.toMatch(/\.min\(-12\)|\.max\(12\)/)
    }
    const limited = (change: (definition: ReturnType<typeof defaultDefinition>) => void) => {
      const definition = structuredClone(defaultDefinition(infoView))
      change(definition)
      return reportDefinitionSchema.safeParse(definition).success
    }
    const names = (count: number) => Array.from({ length: count }, (_unused, index) => `name_${index}`)
    expect(limited((definition) => (definition.metrics = names(REPORT_LIMITS.metrics)))).toBe(true)
    expect(limited((definition) => (definition.metrics = names(REPORT_LIMITS.metrics + 1)))).toBe(false)
    expect(limited((definition) => (definition.breakdown = names(REPORT_LIMITS.breakdownKeys)))).toBe(true)
    expect(limited((definition) => (definition.breakdown = names(REPORT_LIMITS.breakdownKeys + 1)))).toBe(false)
    expect(limited((definition) => (definition.categoryLimit = REPORT_LIMITS.categoryLimit.max + 1))).toBe(false)
    expect(limited((definition) => (definition.audience.rowsLimit = REPORT_LIMITS.audienceRowsLimit.min - 1))).toBe(false)
  })

  it('reads the limits from common/ where they are enforced (paste, metric picker, audience panel, export dialog)', () => {
    const paste = sourceFiles(path.join(root, 'main/services/presets/paste'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n')
    expect(paste).not.toMatch(/length > (?:5|8|10|50)\b|slice\(0, (?:5|8)\)|, 10_000, 10_000_000,|, 1, 10_000,/)
    expect(text('renderer/src/components/reports/MetricPicker.vue')).not.toMatch(/MAX_METRICS = \d/)
    expect(text('renderer/src/components/reports/AudiencePanel.vue')).not.toMatch(/slice\(0, \d/)
    expect(text('renderer/src/domain/exports/options.ts')).not.toMatch(/MAX_EXPORT_KEYS = \d/)
  })

  it('gives the builder and the paste the same defaults', () => {
    const { project: _project, report: _report, metrics: _metrics, filters: _filters, ...builder } = defaultDefinition(infoView)
    expect(builder).toMatchObject(defaultDefinitionParts())
    expect(pasteDefaults).toEqual(defaultDefinitionParts())
    expect(pasteDefaults.dates).toEqual({ start: '-7d', end: '-1d' })
  })

  it('writes a byte count the same way in the jobs panel, the notification and the command line', () => {
    const size = Math.round(15.3 * 1024 * 1024)
    expect(formatBytes(size)).toBe('15.3 MB')
    expect(panelFormatBytes(size)).toBe('15.3 MB')
    expect(exportFormatBytes(size)).toBe('15.3 MB')
  })
})
