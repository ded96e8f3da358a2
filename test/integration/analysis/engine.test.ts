import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAnalysis, type Analysis } from '../../../main/services/analysis/analysis'
import { createOpenedFiles } from '../../../main/services/analysis/opened-files'

let folder: string
let analysis: Analysis

const file = (name: string, content: string | Uint8Array): string => {
  const filePath = path.join(folder, name)
  writeFileSync(filePath, content)
  return filePath
}

/** The error a call fails with (a call that succeeds fails the test). */
async function failure(call: Promise<unknown>): Promise<Error> {
  const outcome = await call.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(outcome instanceof Error)) throw new Error('expected the call to fail')
  return outcome
}

const SALES = 'publisher,country,revenue\nA,US,10\nA,FR,5\nB,US,30\n'
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'

function workbook(sheets: string[], rows: string): Uint8Array {
  return zipSync({
    'xl/workbook.xml': strToU8(
      `<workbook ${NS} xmlns:r="r"><sheets>${sheets.map((name, index) => `<sheet name="${name}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`).join('')}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(`<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet ${NS}><sheetData>${rows}</sheetData></worksheet>`),
  })
}

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'analysis-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))
afterEach(() => analysis?.dispose())

const start = (): Analysis => {
  analysis = createAnalysis({ openedFiles: createOpenedFiles({ engineLimits: { rowCap: 3, timeLimitMs: 500, memoryLimit: '512MB' } }) })
  return analysis
}

describe('the engine is locked down for the SQL box', () => {
  it.each([
    ["SELECT * FROM read_csv('/etc/passwd')", 'cannot open other files'],
    ["SELECT * FROM read_text('/etc/passwd')", 'cannot open other files'],
    ["SELECT * FROM read_csv('https://example.com/data.csv')", 'cannot open other files'],
    ["COPY (SELECT 1) TO '/tmp/out.csv'", 'cannot open other files'],
    ["ATTACH '/tmp/other.db'", 'only reads'],
    ['INSTALL httpfs', 'only reads'],
    ['LOAD httpfs', 'only reads'],
    ['SET enable_external_access=true', 'only reads'],
    ['DROP TABLE sales', 'only reads'],
    ['SELECT 1; SELECT 2', 'one statement at a time'],
  ])('%s is refused with a sentence', async (query, words) => {
    const opened = await start().open(file('sales.csv', SALES))
    const error = await failure(analysis.sql([opened.id], query))
    expect(error.message).toContain(words)
    expect(error.message).not.toContain('/etc/passwd')
    expect(error.message).not.toContain(folder)
  })

  it('says how to read another file in the app, and an empty query suggests a table that is there', async () => {
    const opened = await start().open(file('sales.csv', SALES))
    expect((await failure(analysis.sql([opened.id], "SELECT * FROM read_csv('/etc/passwd')"))).message).toMatch(/open it in Analysis first/)
    const empty = await failure(analysis.sql([opened.id], '   '))
    expect(empty.message).toBe('The query is empty; type a SELECT over the opened files (sales), such as SELECT * FROM sales LIMIT 10.')
  })

  it('a syntax error says what the engine says, not that the engine failed', async () => {
    const opened = await start().open(file('sales.csv', SALES))
    const error = await failure(analysis.sql([opened.id], 'SELECT max(at) FROM sales'))
    expect(error.message).toContain('The engine could not run the query: Parser Error: syntax error')
  })

  it('reads the opened file by its table name, cut at the row cap, and says so', async () => {
    const opened = await start().open(file('sales.csv', SALES + 'C,DE,1\nD,DE,2\n'))
    expect(opened).toMatchObject({ name: 'sales.csv', table: 'sales', rowCount: 5, columns: [{ name: 'publisher' }, { name: 'country' }, { name: 'revenue' }] })
    expect(JSON.stringify(opened)).not.toContain(folder)
    const result = await analysis.sql([opened.id], 'SELECT publisher, revenue FROM sales ORDER BY revenue DESC')
    expect(result).toEqual({
      columns: ['publisher', 'revenue'],
      rows: [
        ['B', 30],
        ['A', 10],
        ['A', 5],
      ],
      truncated: true,
      notes: [],
    })
  })

  it('joins several opened files in one query', async () => {
    start()
    const sales = await analysis.open(file('sales.csv', SALES))
    const names = await analysis.open(file('names.tsv', 'publisher\tlabel\nA\tAlpha\nB\tBeta\n'))
    const result = await analysis.sql(
      [sales.id, names.id],
      'SELECT label, sum(revenue) AS revenue FROM sales JOIN names USING (publisher) GROUP BY label ORDER BY label',
    )
    expect(result.rows).toEqual([
      ['Alpha', 15],
      ['Beta', 30],
    ])
  })

  it('stops a query that never ends at the time limit, with a sentence, and keeps working', async () => {
    const opened = await start().open(file('sales.csv', SALES))
    await expect(analysis.sql([opened.id], 'SELECT count(*) FROM range(1000000000000) AS a, range(1000000) AS b')).rejects.toThrow(
      /ran longer than 1 seconds and was stopped/,
    )
    expect((await analysis.sql([opened.id], 'SELECT count(*) AS n FROM sales')).rows).toEqual([[3]])
  })
})

describe('bad files give a sentence', () => {
  it.each([
    ['empty.csv', '', 'is empty'],
    ['header.csv', '', 'holds no rows'],
    ['workbook.csv', zipSync({ 'a.txt': strToU8('x') }), 'is a zip archive'],
    ['binary.csv', new Uint8Array([1, 2, 0, 0, 5, 6]), 'holds binary data'],
    ['text.xlsx', 'a,b\n1,2\n', 'is not an XLSX workbook'],
    ['notes.pdf', 'x', 'is not a CSV, TSV or XLSX file'],
  ])('%s', async (name, content, words) => {
    const filePath = file(name, name === 'header.csv' ? '\n' : content)
    const error = await failure(start().open(filePath))
    expect(error.message).toContain(words)
    expect(error.message).not.toContain(folder)
  })

  it('a file past the size cap (a sparse 2 GB file) is refused before it is read', async () => {
    const filePath = file('huge.csv', '')
    truncateSync(filePath, 2 * 1024 * 1024 * 1024)
    await expect(start().open(filePath)).rejects.toThrow(/huge\.csv is 2(\.0)? GB, more than the 1(\.0)? GB the analysis opens; filter the export down/)
  })

  it('a missing file gives a sentence with no folder in it', async () => {
    const error = await failure(start().open(path.join(folder, 'gone.csv')))
    expect(error.message).toBe('gone.csv could not be read; check that it still exists and that you may read it.')
  })

  it('ragged rows are padded or kept, not refused', async () => {
    const opened = await start().open(file('ragged.csv', 'a,b,c\n1,x,2\n2,y\n3,z,4,extra\n'))
    expect(opened.rowCount).toBe(3)
    expect((await analysis.sql([opened.id], 'SELECT a, c FROM ragged ORDER BY a')).rows).toEqual([
      [1, 2],
      [2, null],
      [3, 4],
    ])
  })

  it('a column of numbers with text far down is read as text, said, and still summed by its numbers', async () => {
    const lines = ['publisher,revenue', ...Array.from({ length: 30_000 }, (_, index) => `p${index % 3},1`), 'p0,n/a']
    const opened = await start().open(file('mixed.csv', lines.join('\n')))
    expect(opened.columns.find((column) => column.name === 'revenue')?.type).toBe('VARCHAR')
    expect(opened.notes.join(' ')).toContain('mix numbers and text')
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
    const window = await analysis.window(pivot.pivotId, { rowStart: 0, rowCount: 10, columnStart: 0, columnCount: 10 })
    expect(window.cells).toEqual([[30_000]])
  })

  it('an xlsx with several sheets opens the first and names the others', async () => {
    const rows =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>publisher</t></is></c><c r="B1" t="inlineStr"><is><t>revenue</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>A</t></is></c><c r="B2"><v>12.5</v></c></row>'
    const opened = await start().open(file('book.xlsx', workbook(['November', 'December', 'Notes'], rows)))
    expect(opened.rowCount).toBe(1)
    expect(opened.notes).toEqual([
      'Only the first sheet, November, was opened; the workbook also has December, Notes. Save another sheet as its own file to analyse it.',
    ])
    const pivot = await analysis.pivot(
      opened.id,
      {
        rows: ['publisher'],
        columns: [],
        values: [{ field: 'revenue', aggregate: 'sum' }],
        sort: { by: 'label', direction: 'asc' },
        top: null,
        subtotals: false,
        showChange: false,
      },
      [],
    )
    expect((await analysis.window(pivot.pivotId, { rowStart: 0, rowCount: 10, columnStart: 0, columnCount: 10 })).cells).toEqual([[12.5], [12.5]])
  })
})

describe('files reach the analysis only through main', () => {
  it('a finished export by its job id, or the open dialog (cancelled: nothing opened)', async () => {
    const exported = file('export.csv', SALES)
    let picked: string[] = []
    analysis = createAnalysis({
      exportFile: async (jobId) => {
        if (jobId !== 'job-1') throw new Error('not in the list')
        return exported
      },
      dialogs: { chooseOpenPaths: async () => picked },
    })
    const opened = await analysis.openExport('job-1')
    expect(opened).toMatchObject({ name: 'export.csv', table: 'export', rowCount: 3 })
    expect(await analysis.openChosen()).toBeNull()
    picked = [file('names.tsv', 'publisher\tlabel\nA\tAlpha\n')]
    expect((await analysis.openChosen())?.table).toBe('names')
    expect(analysis.files().map((known) => known.name)).toEqual(['export.csv', 'names.tsv'])
    await analysis.close(opened.id)
    await expect(
      analysis.pivot(
        opened.id,
        {
          rows: ['publisher'],
          columns: [],
          values: [{ field: 'revenue', aggregate: 'sum' }],
          sort: { by: 'label', direction: 'asc' },
          top: null,
          subtotals: false,
          showChange: false,
        },
        [],
      ),
    ).rejects.toThrow('That file is not open any more; open it again.')
  })
})
