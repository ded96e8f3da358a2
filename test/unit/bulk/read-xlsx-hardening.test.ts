import { deflateRawSync } from 'node:zlib'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { readXlsxTable, readXlsxWorkbook, XLSX_LIMITS } from '../../../main/services/bulk/read-xlsx'
import { readXlsxFile } from '../../../main/services/bulk/xlsx-in-worker'
import { PartTooLarge, unzipParts } from '../../../main/services/bulk/xlsx-unzip'

/**
 * A crafted workbook must never hold the reader for long: a part whose zip headers lie about
 * its size (a deflate bomb), tags that are never closed (the old regular expressions rescanned
 * the rest of the sheet for each one), a read that runs past its time bound.
 */

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
const MB = 1024 * 1024

interface ZipEntry {
  name: string
  data: Uint8Array
  /** The uncompressed size the headers claim; the real one when left out. */
  declaredSize?: number
}

/** A zip written by hand, each entry deflated, so its headers can claim any size (as a crafted file's do). */
function zipOf(entries: ZipEntry[]): Uint8Array {
  const chunks: Uint8Array[] = []
  const central: Uint8Array[] = []
  let offset = 0
  for (const entry of entries) {
    const name = strToU8(entry.name)
    const compressed = deflateRawSync(entry.data, { level: 9 })
    const size = entry.declaredSize ?? entry.data.length
    const local = new DataView(new ArrayBuffer(30))
    local.setUint32(0, 0x04034b50, true)
    local.setUint16(4, 20, true)
    local.setUint16(8, 8, true)
    local.setUint32(18, compressed.length, true)
    local.setUint32(22, size, true)
    local.setUint16(26, name.length, true)
    const header = new DataView(new ArrayBuffer(46))
    header.setUint32(0, 0x02014b50, true)
    header.setUint16(4, 20, true)
    header.setUint16(6, 20, true)
    header.setUint16(10, 8, true)
    header.setUint32(20, compressed.length, true)
    header.setUint32(24, size, true)
    header.setUint16(28, name.length, true)
    header.setUint32(42, offset, true)
    chunks.push(new Uint8Array(local.buffer), name, compressed)
    central.push(new Uint8Array(header.buffer), name)
    offset += 30 + name.length + compressed.length
  }
  const centralSize = central.reduce((sum, chunk) => sum + chunk.length, 0)
  const end = new DataView(new ArrayBuffer(22))
  end.setUint32(0, 0x06054b50, true)
  end.setUint16(8, entries.length, true)
  end.setUint16(10, entries.length, true)
  end.setUint32(12, centralSize, true)
  end.setUint32(16, offset, true)
  const all = [...chunks, ...central, new Uint8Array(end.buffer)]
  const bytes = new Uint8Array(all.reduce((sum, chunk) => sum + chunk.length, 0))
  let at = 0
  for (const chunk of all) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  return bytes
}

const HEADER_ROW = '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>'

function workbookOf(sheetData: string, extra: ZipEntry[] = [], sharedStrings = `<sst ${NS}></sst>`): Uint8Array {
  return zipOf([
    { name: 'xl/workbook.xml', data: strToU8(`<workbook ${NS} xmlns:r="r"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`) },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: strToU8('<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
    },
    { name: 'xl/sharedStrings.xml', data: strToU8(sharedStrings) },
    { name: 'xl/worksheets/sheet1.xml', data: strToU8(`<worksheet ${NS}><sheetData>${sheetData}</sheetData></worksheet>`) },
    ...extra,
  ])
}

describe('a crafted workbook is refused with a sentence, without inflating or scanning it whole', () => {
  it('a part whose headers claim 100 bytes but that inflates past the bound is refused as a zip bomb', () => {
    const bomb = zipOf([
      { name: 'xl/workbook.xml', data: strToU8(`<workbook ${NS} xmlns:r="r"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`) },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: strToU8('<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
      },
      { name: 'xl/sharedStrings.xml', data: new Uint8Array(3 * MB), declaredSize: 100 },
      { name: 'xl/worksheets/sheet1.xml', data: strToU8(`<worksheet ${NS}><sheetData>${HEADER_ROW}</sheetData></worksheet>`) },
    ])
    expect(bomb.length).toBeLessThan(10_000)
    expect(readXlsxTable(bomb, { ...XLSX_LIMITS, maxPartBytes: MB }).problems).toEqual([
      "The workbook's xl/sharedStrings.xml unzips to more than 1.0 MB although its header says 100 B: it looks like a zip bomb, so it was not read; save the workbook again from the spreadsheet, or export it as CSV.",
    ])
  })

  it('the bomb stops inflating near its bound: the running count, not the header, decides', () => {
    const bomb = zipOf([{ name: 'xl/sharedStrings.xml', data: new Uint8Array(3 * MB), declaredSize: 100 }])
    let caught: unknown
    try {
      unzipParts(bomb, new Set(['xl/sharedStrings.xml']), { maxPartBytes: MB, maxEntries: 10 })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(PartTooLarge)
    const { inflatedBytes } = caught as PartTooLarge
    expect(inflatedBytes).toBeGreaterThan(MB)
    // One slice of input past the bound at most (1 MB here), never the whole 3 MB.
    expect(inflatedBytes).toBeLessThanOrEqual(2 * MB + 64 * 1024)
  })

  it('a zip listing more entries than the bound is refused before any is read', () => {
    expect(readXlsxTable(workbookOf(HEADER_ROW), { ...XLSX_LIMITS, maxEntries: 3 }).problems).toEqual([
      'The workbook holds more than 3 parts, more than a sheet of data needs; export it as CSV and import that.',
    ])
  })

  it('20,000 <row> tags never closed are refused with the missing-close-tag sentence', () => {
    const table = readXlsxTable(workbookOf(HEADER_ROW + '<row>'.repeat(20_000)))
    expect(table.problems).toEqual([
      "The workbook's xl/worksheets/sheet1.xml is cut short: a <row> is never closed; save the workbook again from the spreadsheet, or export it as CSV.",
    ])
  })

  it.each([
    ['<c>', `${HEADER_ROW}<row r="2">${'<c r="A2">'.repeat(5_000)}</row>`, 'xl/worksheets/sheet1.xml'],
    ['<v>', `${HEADER_ROW}<row r="2"><c r="A2">${'<v>'.repeat(5_000)}</c></row>`, 'xl/worksheets/sheet1.xml'],
    ['<t>', `${HEADER_ROW}<row r="2"><c r="A2" t="inlineStr"><is>${'<t>'.repeat(5_000)}</is></c></row>`, 'xl/worksheets/sheet1.xml'],
  ])('a %s never closed in the sheet is refused', (tag, rows, part) => {
    expect(readXlsxTable(workbookOf(rows)).problems).toEqual([
      `The workbook's ${part} is cut short: a ${tag} is never closed; save the workbook again from the spreadsheet, or export it as CSV.`,
    ])
  })

  it.each([
    ['<si>', `<sst ${NS}>${'<si>'.repeat(5_000)}</sst>`],
    ['<rPh>', `<sst ${NS}><si>${'<rPh>'.repeat(5_000)}</si></sst>`],
  ])('a %s never closed in the shared strings is refused', (tag, sharedStrings) => {
    expect(readXlsxTable(workbookOf(HEADER_ROW, [], sharedStrings)).problems).toEqual([
      `The workbook's xl/sharedStrings.xml is cut short: a ${tag} is never closed; save the workbook again from the spreadsheet, or export it as CSV.`,
    ])
  })
})

describe('a valid workbook reads as it did before the scanner', () => {
  it('reads every kind of cell, skips phonetic hints, rows and cells without a reference, and what follows sheetData', () => {
    const sheet =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet ${NS}><dimension ref="A1:E6"/><cols><col min="1" max="2"/></cols><sheetData>` +
      '<row r="1" spans="1:5"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s" s="2"><v>2</v></c>' +
      '<c r="D1" t="inlineStr"><is><r><t xml:space="preserve">d </t></r><r><rPr><b/></rPr><t>one</t></r></is></c><c r="E1" t="str"><v>e1</v></c></row>\r\n' +
      '<row r="2"/>' +
      '<row r="3" spans="1:5" ht="15"><c r="A3" t="s"><v>3</v></c><c r="B3"><f>SUM(1,2)</f><v>3</v></c>' +
      '<c r="C3"><f t="shared" ref="C3:C4" si="0">A3&amp;"x"</f><v>ax</v></c><c r="D3" t="e"><v>#N/A</v></c><c r="E3" t="b"><v>0</v></c></row>' +
      '<row><c r="C4"><f t="shared" si="0"/><v>bx</v></c><c r="A4" t="inlineStr"><is><t>&#x41;&#66;&unknown;&lt;&amp;amp;</t></is></c><c/><c r="E4" s="3"/></row>' +
      '<row r="6"><c t="s"><v>4</v></c><c><v>1.5E-3</v></c><c r="D6" t="s"><v>99</v></c></row>' +
      '</sheetData><rowBreaks count="1" manualBreakCount="1"><brk id="5" max="16383" man="1"/></rowBreaks><pageMargins left="0.7"/></worksheet>'
    const shared =
      `<sst ${NS} count="5" uniqueCount="5"><si><t>external_id</t></si><si><r><t>na</t></r><r><t>me</t></r></si>` +
      '<si><t>日本</t><rPh sb="0" eb="2"><t>ニホン</t></rPh><phoneticPr fontId="1"/></si><si><t xml:space="preserve"> spaced  </t></si><si><t>last&#10;line</t></si></sst>'
    const bytes = zipSync({
      'xl/workbook.xml': strToU8(
        `<workbook ${NS} xmlns:r="r"><sheets><sheet name="A&amp;B" sheetId="1" r:id="rId2"/><sheet name="Two" sheetId="2" r:id="rId1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<?xml version="1.0"?><Relationships xmlns="x"><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="worksheet" Target="/xl/worksheets/sheet2.xml"/></Relationships>',
      ),
      'xl/sharedStrings.xml': strToU8(shared),
      'xl/worksheets/sheet2.xml': strToU8(sheet),
    })
    // The expected values are what the regular-expression reader gave for this file (compared before it was replaced).
    expect(readXlsxWorkbook(bytes)).toEqual({
      table: {
        separator: ',',
        header: ['external_id', 'name', '日本', 'd one', 'e1'],
        rows: [
          { row: 3, cells: [' spaced  ', '=SUM(1,2)', '=A3&"x"', '#N/A', 'false'] },
          { row: 4, cells: ['AB&unknown;<&amp;', '', '=bx', '', ''] },
          { row: 6, cells: ['last\nline', '1.5E-3', '', '', ''] },
        ],
        problems: [],
        scanned: 0,
      },
      sheets: ['A&amp;B', 'Two'],
      // What the analysis types the columns by: a formula is text, an error text, a boolean a boolean.
      columnTypes: ['text', 'mixed', 'text', 'text', 'boolean'],
      date1904: false,
    })
  })
})

describe("the app reads a workbook in a worker thread, within a time bound, and main's loop keeps answering", () => {
  it('the worker refuses the bomb with the same sentence', async () => {
    const read = await readXlsxFile(
      zipOf([
        { name: 'xl/sharedStrings.xml', data: new Uint8Array(3 * MB), declaredSize: 100 },
        { name: 'xl/worksheets/sheet1.xml', data: strToU8(`<worksheet ${NS}><sheetData>${HEADER_ROW}</sheetData></worksheet>`) },
      ]),
      { limits: { ...XLSX_LIMITS, maxPartBytes: MB } },
    )
    expect(read.table.problems[0]).toMatch(
      /^The workbook's xl\/sharedStrings\.xml unzips to more than 1\.0 MB although its header says 100 B: it looks like a zip bomb/,
    )
  })

  it('a large valid workbook is read while a timer on main keeps ticking, with the same rows and sheet names as on the calling thread', async () => {
    const rows = Array.from(
      { length: 20_000 },
      (_, index) => `<row r="${index + 2}"><c r="A${index + 2}" t="inlineStr"><is><t>brand ${index}</t></is></c><c r="B${index + 2}"><v>${index}</v></c></row>`,
    ).join('')
    const bytes = workbookOf(`<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>external_id</t></is></c></row>${rows}`)
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    try {
      const read = await readXlsxFile(bytes)
      // On main's thread (the reader before) not one tick could run until the read was over.
      expect(ticks).toBeGreaterThan(2)
      expect(read).toEqual(readXlsxWorkbook(bytes))
      expect(read.table.rows).toHaveLength(20_000)
      expect(read.sheets).toEqual(['Data'])
    } finally {
      clearInterval(timer)
    }
  })

  it('a worker that runs past its time bound is ended and the read answers a sentence', async () => {
    const endless = new URL('data:text/javascript,for(;;){}')
    const read = await readXlsxFile(workbookOf(HEADER_ROW), { timeLimitMs: 200, workerScript: endless })
    expect(read.table.problems).toEqual(['Reading the workbook took longer than 200 ms, so it was stopped; save a smaller sheet, or export it as CSV.'])
  })
})
