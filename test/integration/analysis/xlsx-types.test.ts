import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAnalysis, type Analysis } from '../../../main/services/analysis/analysis'
import { createOpenedFiles } from '../../../main/services/analysis/opened-files'
import { writeXlsx } from '../../../main/services/exports/xlsx-writer'
import { sheetRow } from '../../../main/sandbox/reporting/export-xlsx'

/** An XLSX opened in the analysis gets its columns typed from its cells, as a CSV's are sniffed. */

let folder: string
let analysis: Analysis

const file = (name: string, content: Uint8Array): string => {
  const filePath = path.join(folder, name)
  writeFileSync(filePath, content)
  return filePath
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'

/** A workbook of one sheet written by hand: booleans (`t="b"`), which the app's writer never writes. */
function handWritten(rows: string): Uint8Array {
  return zipSync({
    'xl/workbook.xml': strToU8(`<workbook ${NS} xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(`<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet ${NS}><sheetData>${rows}</sheetData></worksheet>`),
  })
}

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'analysis-xlsx-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))
afterEach(() => analysis?.dispose())

const start = (): Analysis => {
  analysis = createAnalysis({ openedFiles: createOpenedFiles({ engineLimits: { rowCap: 100, timeLimitMs: 5_000, memoryLimit: '512MB' } }) })
  return analysis
}

describe('an xlsx opened for analysis has typed columns', () => {
  it("the app's own xlsx export answers SELECT sum(impressions) with a number", async () => {
    // 46327 is 2026-11-01 in the 1900 date system; 0.5 of a day is noon.
    const bytes = writeXlsx({
      name: 'Publishers',
      rows: [
        ['Publisher', 'day', 'seen_at', 'impressions', 'revenue', 'bucket', 'hour', 'note'],
        ['Alpha', 46327, 46327.5, 1200, 10.5, '2026-11-01', '2026-11-01 13:00:00', '2026-11-01'],
        ['Beta', 46328, 46328.25, 800, 2.25, '2026-11-02', '2026-11-01T14:30:00', '2026-02-30'],
        ['Gamma', null, null, 3, null, null, null, null],
      ],
      headerRows: 1,
      frozenColumns: 1,
      columnFormats: [undefined, 'yyyy-mm-dd', 'yyyy-mm-dd hh:mm', '#,##0', '#,##0.00', undefined, undefined, undefined],
    })
    const opened = await start().open(file('export.xlsx', bytes))
    expect(opened.columns).toEqual([
      { name: 'Publisher', type: 'VARCHAR' },
      { name: 'day', type: 'DATE' },
      { name: 'seen_at', type: 'TIMESTAMP' },
      { name: 'impressions', type: 'BIGINT' },
      { name: 'revenue', type: 'DOUBLE' },
      // Dates written as ISO text (the platform's export writes its time buckets so) are dates, as a csv's are; 30 February is not one.
      { name: 'bucket', type: 'DATE' },
      { name: 'hour', type: 'TIMESTAMP' },
      { name: 'note', type: 'VARCHAR' },
    ])
    expect(opened.notes).toEqual([])
    const answer = await analysis.sql([opened.id], 'SELECT sum(impressions) AS total, sum(revenue) AS money FROM export')
    expect(answer.rows).toEqual([[2003, 12.75]])
    const days = await analysis.sql([opened.id], "SELECT CAST(min(day) AS VARCHAR), CAST(max(seen_at) AS VARCHAR) FROM export WHERE day >= DATE '2026-11-01'")
    expect(days.rows).toEqual([['2026-11-01', '2026-11-02 06:00:00']])
    const buckets = await analysis.sql([opened.id], 'SELECT CAST(max(bucket) AS VARCHAR), CAST(max(hour) AS VARCHAR) FROM export')
    expect(buckets.rows).toEqual([['2026-11-02', '2026-11-01 14:30:00']])
  })

  it('booleans are BOOLEAN; a column with a text cell among numbers stays text, said, and its numbers still sum', async () => {
    const cell = (reference: string, value: string, type?: string): string =>
      type === 'inlineStr'
        ? `<c r="${reference}" t="inlineStr"><is><t>${value}</t></is></c>`
        : `<c r="${reference}"${type ? ` t="${type}"` : ''}><v>${value}</v></c>`
    const rows = [
      `<row r="1">${cell('A1', 'publisher', 'inlineStr')}${cell('B1', 'active', 'inlineStr')}${cell('C1', 'revenue', 'inlineStr')}</row>`,
      `<row r="2">${cell('A2', 'A', 'inlineStr')}${cell('B2', '1', 'b')}${cell('C2', '10')}</row>`,
      `<row r="3">${cell('A3', 'B', 'inlineStr')}${cell('B3', '0', 'b')}${cell('C3', 'n/a', 'inlineStr')}</row>`,
      `<row r="4">${cell('A4', 'C', 'inlineStr')}${cell('C4', '5')}</row>`,
    ].join('')
    const opened = await start().open(file('mixed.xlsx', handWritten(rows)))
    expect(opened.columns).toEqual([
      { name: 'publisher', type: 'VARCHAR' },
      { name: 'active', type: 'BOOLEAN' },
      { name: 'revenue', type: 'VARCHAR' },
    ])
    expect(opened.notes.join(' ')).toContain('mix numbers and text')
    const answer = await analysis.sql([opened.id], 'SELECT count(*) FILTER (WHERE active) AS on_count, count(active) AS known FROM mixed')
    expect(answer.rows).toEqual([[1, 2]])
    const pivot = await analysis.pivot(
      opened.id,
      {
        rows: [],
        columns: [],
        values: [{ field: 'revenue', aggregate: 'sum' }],
        sort: { by: 'label', direction: 'asc' },
        top: null,
        subtotals: false,
        showChange: false,
      },
      [],
    )
    expect((await analysis.window(pivot.pivotId, { rowStart: 0, rowCount: 10, columnStart: 0, columnCount: 10 })).cells).toEqual([[15]])
  })

  it("the platform's export (cells with no reference, empty ones as <c/>, days as text) sums and filters by day", async () => {
    const rows = [
      sheetRow(1, ['granularity_day', 'publisher', 'impressions']),
      sheetRow(2, ['2026-11-01', 'Alpha', 1200]),
      sheetRow(3, ['2026-11-02', null, 803]),
    ].join('')
    const opened = await start().open(file('platform.xlsx', handWritten(rows)))
    expect(opened.columns.map((column) => column.type)).toEqual(['DATE', 'VARCHAR', 'BIGINT'])
    const answer = await analysis.sql([opened.id], "SELECT sum(impressions) FROM platform WHERE granularity_day >= DATE '2026-11-02'")
    expect(answer.rows).toEqual([[803]])
  })
})
