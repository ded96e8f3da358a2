import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAnalysis, type Analysis } from '../../../main/services/analysis/analysis'
import { readXlsxWorkbook } from '../../../main/services/bulk/read-xlsx'
import type { SaveFileDialog } from '../../../main/services/files/dialogs'

/** The Analysis pivot and the SQL box's answer are saved as the Reports pivot is: where main's save dialog says. */

let folder: string
let analysis: Analysis

/** A save dialog that answers the name it suggests, in the test's folder. */
const dialog: SaveFileDialog = {
  chooseSavePath: async (defaultName) => {
    return path.join(folder, defaultName)
  },
}

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'analysis-files-'))
  writeFileSync(path.join(folder, 'sales.csv'), 'publisher,country,impressions,revenue\nA,US,10,1.5\nA,FR,5,2\nB,US,30,0.25\n')
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))
afterEach(() => analysis?.dispose())

const LAYOUT = {
  rows: ['publisher'],
  columns: ['country'],
  values: [{ field: 'impressions', aggregate: 'sum' as const }],
  sort: { by: 'label' as const, direction: 'asc' as const },
  top: null,
  subtotals: false,
  showChange: false,
}

describe('saving from Analysis', () => {
  it('the pivot as shown, as csv and as xlsx with whole numbers and the totals', async () => {
    analysis = createAnalysis({ saveDialog: dialog })
    const opened = await analysis.open(path.join(folder, 'sales.csv'))
    const pivot = await analysis.pivot(opened.id, LAYOUT, [])
    expect(await analysis.savePivot(pivot.pivotId, 'csv')).toEqual({ fileName: 'sales pivot.csv' })
    const csv = readFileSync(path.join(folder, 'sales pivot.csv'), 'utf8')
    expect(csv.split('\r\n')).toEqual([
      ',FR,US,Total',
      'publisher,sum of impressions,sum of impressions,sum of impressions',
      'A,5,10,15',
      'B,,30,30',
      'Total,5,40,45',
      '',
    ])
    expect(await analysis.savePivot(pivot.pivotId, 'xlsx')).toEqual({ fileName: 'sales pivot.xlsx' })
    const bytes = new Uint8Array(readFileSync(path.join(folder, 'sales pivot.xlsx')))
    const book = readXlsxWorkbook(bytes)
    expect(book.table.rows.map((row) => row.cells)).toEqual([
      ['publisher', 'sum of impressions', 'sum of impressions', 'sum of impressions'],
      ['A', '5', '10', '15'],
      ['B', '', '30', '30'],
      ['Total', '5', '40', '45'],
    ])
    // impressions is a BIGINT column: its sums are written without decimals.
    expect(strFromU8(unzipSync(bytes)['xl/styles.xml']!)).toContain('formatCode="#,##0"')
  })

  it("the SQL box's answer as csv, numbers kept numbers; a pivot no longer kept says so", async () => {
    analysis = createAnalysis({ saveDialog: dialog })
    const opened = await analysis.open(path.join(folder, 'sales.csv'))
    expect(await analysis.saveSql([opened.id], 'SELECT publisher, sum(revenue) AS revenue FROM sales GROUP BY 1 ORDER BY 1')).toEqual({
      fileName: 'sales query.csv',
    })
    expect(readFileSync(path.join(folder, 'sales query.csv'), 'utf8')).toBe('publisher,revenue\r\nA,3.5\r\nB,0.25\r\n')
    await expect(analysis.savePivot('pivot_99', 'csv')).rejects.toThrow('apply the layout again')
  })
})
