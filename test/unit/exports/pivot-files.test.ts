import { describe, expect, it } from 'vitest'
import { strFromU8, unzipSync } from 'fflate'
import type { PivotFile } from '@contract'
import { readXlsxTable } from '../../../main/services/bulk/read-xlsx'
import { pivotFileBytes, pivotFileTable } from '../../../main/services/exports/pivot-files'
import { columnName, writeXlsx } from '../../../main/services/exports/xlsx-writer'
import { tableLines } from '../../../common/pivot/table'
import { breakdownChart } from '../../support/chart-results'

const file = (format: PivotFile['format']): PivotFile => ({
  format,
  name: 'Weekly pivot',
  layout: {
    rows: ['publisher', 'country'],
    columns: ['@time'],
    values: [{ field: 'impressions', aggregate: 'sum' }],
    sort: { by: 'change', value: 0, column: null, measure: 'absolute', direction: 'desc' },
    top: null,
    subtotals: true,
    showChange: true,
  },
  result: breakdownChart(),
  breakdown: ['publisher', 'country'],
  fields: [{ name: 'impressions', displayType: 'int', precision: 0 }],
})

describe('the XLSX writer', () => {
  it('writes text and numbers that read back as the same cells, empty cells left empty', () => {
    const rows = [
      ['Name', 'Count', 'Share'],
      ['=not a formula <&>', 12345, 0.5],
      ['empty', null, -3],
    ]
    const bytes = writeXlsx({ name: 'Sheet', rows, headerRows: 1, frozenColumns: 1, columnFormats: [undefined, '#,##0', '0.00'] })
    const table = readXlsxTable(bytes)
    expect(table.header).toEqual(['Name', 'Count', 'Share'])
    expect(table.rows.map((row) => row.cells)).toEqual([
      ['=not a formula <&>', '12345', '0.5'],
      ['empty', '', '-3'],
    ])
  })

  it('freezes the header rows and label columns and gives each number column its format', () => {
    const bytes = writeXlsx({
      name: 'Pivot',
      rows: [
        ['a', 'b'],
        ['x', 1],
      ],
      headerRows: 1,
      frozenColumns: 1,
      columnFormats: [undefined, '+#,##0;-#,##0;#,##0'],
    })
    const parts = unzipSync(bytes)
    const sheet = strFromU8(parts['xl/worksheets/sheet1.xml'] as Uint8Array)
    const styles = strFromU8(parts['xl/styles.xml'] as Uint8Array)
    expect(sheet).toContain('<pane xSplit="1" ySplit="1" topLeftCell="B2" activePane="bottomRight" state="frozen"/>')
    expect(styles).toContain('<numFmt numFmtId="164" formatCode="+#,##0;-#,##0;#,##0"/>')
    expect(sheet).toContain('<c r="B2" s="2"><v>1</v></c>')
    expect([0, 25, 26, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA'])
  })
})

describe('a pivot saved as a file', () => {
  it('is the pivot as shown: header rows, sorted rows with subtotals and total, change columns, in XLSX and CSV alike', () => {
    const table = pivotFileTable(file('xlsx'))
    const lines = tableLines(table)
    expect(lines[0]).toEqual(['', '', ...['2026-11-24', '2026-11-25', 'Total'].flatMap((day) => [day, day, day])])
    expect(lines[1]?.slice(0, 5)).toEqual(['publisher', 'country', 'impressions', 'impressions change', 'impressions change %'])
    // Sorted by the absolute change of the row total, largest first: Alpha +20, Beta -100.
    expect(lines.slice(2).map((line) => line.slice(0, 2).join('/'))).toEqual(['Alpha/US', 'Alpha/FR', 'Alpha/Total', 'Beta/US', 'Beta/Total', 'Total/'])
    const read = readXlsxTable(pivotFileBytes(file('xlsx')) as Uint8Array)
    const readLines = [read.header, ...read.rows.map((row) => row.cells)]
    expect(readLines.slice(1)).toEqual(lines.slice(1))
    const csv = pivotFileBytes(file('csv')) as string
    expect(csv.split('\r\n')[3]).toBe('Alpha,FR,1,0,0,,,,1,0,0')
  })

  it('refuses a layout the result cannot fill with a sentence', () => {
    const bad = { ...file('xlsx'), layout: { ...file('xlsx').layout, rows: ['bidder'] } }
    expect(() => pivotFileBytes(bad)).toThrow(/"bidder", which this result does not have/)
  })
})
