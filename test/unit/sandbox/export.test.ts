import { strFromU8, unzipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import { generateEntities } from '../../../main/sandbox/data/entities'
import { generateFacts } from '../../../main/sandbox/data/facts'
import { hourOfRecord, hoursOf } from '../../../main/sandbox/data/hours'
import type { FactTable } from '../../../main/sandbox/data/facts'
import type { ReportContext } from '../../../main/sandbox/reporting/context'
import { dayNumber } from '../../../main/sandbox/reporting/dates'
import { ReportError } from '../../../main/sandbox/reporting/errors'
import { planExport } from '../../../main/sandbox/reporting/export'
import type { ExportFile } from '../../../main/sandbox/reporting/export'
import { csvField, csvLine, tsvField, tsvLine } from '../../../main/sandbox/reporting/export-csv'
import type { ByteSink } from '../../../main/sandbox/reporting/export-sink'
import { writeXlsxExport } from '../../../main/sandbox/reporting/export-xlsx'
import { KeyModel } from '../../../main/sandbox/reporting/keys'

let context: ReportContext
let facts: FactTable
beforeAll(() => {
  const entities = generateEntities(3, 'small')
  facts = generateFacts(3, 'small', dayNumber(2024, 6, 15), entities)
  context = {
    facts,
    entities,
    keys: new KeyModel(facts, entities, () => undefined),
    now: () => new Date('2024-06-15T10:30:00Z'),
    markers: [],
    reportUrl: 'http://x/report',
    user: 'demo',
  }
})

const LIMITS = { textRows: 10, xlsxRows: 12, multiKeyRows: 50 }
const BODY = { start_date: '2024-06-01', end_date: '2024-06-07', data_fields: ['impressions'] }

function collect(plan: ExportFile): unknown[][] {
  return Array.from(plan.rows)
}

function memorySink(): { sink: ByteSink; bytes: () => Uint8Array } {
  const chunks: Uint8Array[] = []
  return {
    sink: { write: (chunk) => (chunks.push(chunk.slice()), true), drain: () => Promise.resolve(), closed: () => false },
    bytes: () => Buffer.concat(chunks),
  }
}

describe('text fields', () => {
  it('quotes csv per RFC 4180 and escapes tsv with backslashes', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField(null)).toBe('')
    expect(csvField(1.5)).toBe('1.5')
    expect(tsvField('a\tb\nc\\d')).toBe('a\\tb\\nc\\\\d')
    expect(tsvField('a,"b"')).toBe('a,"b"')
    expect(csvLine(['x', null, 3])).toBe('x,,3\r\n')
    expect(tsvLine(['x', null, 3])).toBe('x\t\t3\n')
  })
})

describe('export caps', () => {
  it('writes the csv/tsv cap, then one Others row summing the rest', () => {
    const full = planExport(context, { ...BODY, export_format: 'csv', split_by: ['ad_unit'], include_mappings: 0 }, { ...LIMITS, textRows: 1_000_000 })
    const rows = collect(full)
    const capped = planExport(context, { ...BODY, export_format: 'csv', split_by: ['ad_unit'], include_mappings: 0 }, LIMITS)
    const cappedRows = collect(capped)
    expect(capped.rowCount).toBe(11)
    expect(cappedRows.slice(0, 10)).toEqual(rows.slice(0, 10))
    const others = cappedRows[10] ?? []
    expect(others[0]).toBe('Others')
    expect(others[1]).toBe(rows.slice(10).reduce((sum, row) => sum + Number(row[1]), 0))
    expect(capped.matchingRows).toBe(rows.length)
  })

  it('cuts xlsx at its cap without an Others row', async () => {
    const plan = planExport(context, { ...BODY, export_format: 'xlsx', split_by: ['ad_unit'] }, LIMITS)
    expect(plan.rowCount).toBe(12)
    const { sink, bytes } = memorySink()
    await writeXlsxExport(plan, sink)
    const sheet = strFromU8(unzipSync(bytes())['xl/worksheets/sheet1.xml'] ?? new Uint8Array())
    expect(sheet.match(/<row /g)).toHaveLength(13)
    expect(sheet).not.toContain('Others')
  })

  it('rejects multi-key exports over the limit, but not single-key ones', () => {
    expect(() => planExport(context, { ...BODY, export_format: 'csv', split_by: ['publisher', 'device_type'] }, LIMITS)).toThrow(ReportError)
    expect(() => planExport(context, { ...BODY, export_format: 'csv', split_by: ['publisher', 'device_type'] }, LIMITS)).toThrow(/limited to 50 rows/)
    expect(planExport(context, { ...BODY, export_format: 'csv', split_by: ['ad_unit'] }, LIMITS).matchingRows).toBeGreaterThan(50)
  })
})

describe('fact table', () => {
  it('finds record hours from the hour index', () => {
    const sample = Int32Array.from([0, 1, 500, 501, 20_000, facts.count - 1])
    expect(Array.from(hoursOf(facts, sample))).toEqual(Array.from(sample, (record) => hourOfRecord(facts.hourStart, facts.firstHour, record)))
    expect(hourOfRecord(facts.hourStart, facts.firstHour, 0)).toBe(facts.firstHour)
    expect(hourOfRecord(facts.hourStart, facts.firstHour, facts.count - 1)).toBe(facts.firstHour + 400 * 24 - 1)
  })

  it('inverts page_url text back to its id', () => {
    for (const page of [0, 7, facts.pages.count - 1, Math.floor(facts.pages.count / 2)]) {
      expect(facts.pages.lookup(facts.pages.text(page))).toBe(page)
    }
    expect(facts.pages.lookup('https://nowhere.example/a-b-1')).toBeUndefined()
  })

  it('is deterministic per seed', () => {
    const entities = generateEntities(3, 'small')
    const again = generateFacts(3, 'small', dayNumber(2024, 6, 15), entities)
    expect(again.count).toBe(facts.count)
    expect(Buffer.from(again.revenue.buffer).equals(Buffer.from(facts.revenue.buffer))).toBe(true)
    const other = generateFacts(4, 'small', dayNumber(2024, 6, 15), generateEntities(4, 'small'))
    expect(Buffer.from(other.revenue.buffer).equals(Buffer.from(facts.revenue.buffer))).toBe(false)
    // Data for a date does not depend on the day the sandbox starts.
    const later = generateFacts(3, 'small', dayNumber(2024, 6, 16), entities)
    const dayStart = (table: FactTable, date: number): number => table.hourStart[date * 24 - table.firstHour] ?? -1
    const day = dayNumber(2024, 6, 1)
    const from = dayStart(facts, day)
    const laterFrom = dayStart(later, day)
    const length = dayStart(facts, day + 1) - from
    expect(Array.from(later.impressions.subarray(laterFrom, laterFrom + length))).toEqual(Array.from(facts.impressions.subarray(from, from + length)))
  })
})
