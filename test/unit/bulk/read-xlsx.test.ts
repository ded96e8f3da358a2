import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { kindSpec } from '../../../main/services/entities/kinds'
import { planImport } from '../../../main/services/bulk/plan'
import { readXlsxTable, readXlsxWorkbook, XLSX_LIMITS } from '../../../main/services/bulk/read-xlsx'

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'

/** A workbook as a spreadsheet saves one: the first sheet named through workbook.xml and its relationships. */
function workbook(sheetRows: string, sharedStrings: string[] = [], sheetFile = 'sheet7.xml'): Uint8Array {
  const shared = `<sst ${NS}>${sharedStrings.map((text) => `<si>${text}</si>`).join('')}</sst>`
  return zipSync({
    'xl/workbook.xml': strToU8(`<workbook ${NS} xmlns:r="r"><sheets><sheet name="Data" sheetId="1" r:id="rId3"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(`<Relationships><Relationship Id="rId3" Type="worksheet" Target="worksheets/${sheetFile}"/></Relationships>`),
    'xl/sharedStrings.xml': strToU8(shared),
    [`xl/worksheets/${sheetFile}`]: strToU8(`<worksheet ${NS}><cols><col min="1" max="2"/></cols><sheetData>${sheetRows}</sheetData></worksheet>`),
  })
}

describe('reading an XLSX workbook into rows', () => {
  it('reads the first sheet: shared strings (rich runs too), inline strings, numbers, booleans, gaps, escaped text', () => {
    const bytes = workbook(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>is_pmp_allowed</t></is></c><c r="D1" t="s"><v>2</v></c></row>' +
        '<row r="3"><c r="A3" t="s"><v>3</v></c><c r="B3" t="b"><v>1</v></c><c r="D3"><v>42</v></c></row>' +
        '<row r="4"><c r="A4" t="inlineStr"><is><t>Tom &amp; &quot;Jerry&quot;</t></is></c></row>',
      ['<t>external_id</t>', '<r><t>is_open_</t></r><r><t>auction_allowed</t></r>', '<t>name</t>', '<t>B-1</t>'],
    )
    const table = readXlsxTable(bytes)
    expect(table.problems).toEqual([])
    expect(table.header).toEqual(['external_id', 'is_open_auction_allowed', 'is_pmp_allowed', 'name'])
    // The sheet's own row numbers; empty cells left out by the sheet come back empty.
    expect(table.rows).toEqual([
      { row: 3, cells: ['B-1', 'true', '', '42'] },
      { row: 4, cells: ['Tom & "Jerry"', '', '', ''] },
    ])
  })

  it('a cell holding a formula is refused by the plan like a formula typed in a CSV', () => {
    const bytes = workbook(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>external_id</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>' +
        '<row r="2"><c r="A2" t="inlineStr"><is><t>B-1</t></is></c><c r="B2" t="str"><f>CONCAT("a","b")</f><v>ab</v></c></row>',
    )
    const spec = kindSpec('brands')
    if (spec === undefined) throw new Error('no brands')
    const plan = planImport({ spec, table: readXlsxTable(bytes), existing: [{ id: 1, name: 'Acme', external_id: 'B-1' }] })
    expect(plan.rows[0]?.errors[0]?.reason).toMatch(/^name: "=CONCAT\("a","b"\)" starts with = like a spreadsheet formula/)
  })

  it('says what to do with a file that is not a workbook, a part that unzips too large, too many rows, an empty sheet', () => {
    expect(readXlsxTable(strToU8('name,external_id\n')).problems).toEqual([
      'The file is not a readable XLSX workbook; save it again from the spreadsheet, or export it as CSV.',
    ])
    const rows = Array.from(
      { length: 12 },
      (_, index) => `<row r="${index + 1}"><c r="A${index + 1}" t="inlineStr"><is><t>${'x'.repeat(100)}</t></is></c></row>`,
    ).join('')
    expect(readXlsxTable(workbook(rows), { ...XLSX_LIMITS, maxPartBytes: 500 }).problems[0]).toMatch(
      /unzips to more than 500 B; save a smaller sheet, or export it as CSV\.$/,
    )
    expect(readXlsxTable(workbook(rows), { ...XLSX_LIMITS, maxRows: 10 }).problems).toEqual([
      'The sheet has more than 10 rows; split it into smaller files and import each.',
    ])
    expect(readXlsxTable(workbook(rows), { ...XLSX_LIMITS, maxCellChars: 50 }).problems[0]).toMatch(/^Row 1 has a cell longer than 50 characters/)
    expect(readXlsxTable(workbook('')).problems[0]).toMatch(/^The sheet is empty/)
  })
})

describe("a workbook's cell types, for the analysis", () => {
  it('numbers, date styles (built-in and custom), booleans and text fold into one type per column; 1904 dates are said', () => {
    const styles =
      `<styleSheet ${NS}><numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="#,##0 &quot;days&quot;"/></numFmts>` +
      '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
      '<cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="22"/></cellXfs></styleSheet>'
    const cell = (reference: string, value: string, extra = ''): string => `<c r="${reference}"${extra}><v>${value}</v></c>`
    const text = (reference: string, value: string): string => `<c r="${reference}" t="inlineStr"><is><t>${value}</t></is></c>`
    const sheet =
      `<row r="1">${['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((column) => text(`${column}1`, column)).join('')}</row>` +
      `<row r="2">${cell('A2', '1')}${cell('B2', '1.5')}${cell('C2', '46327', ' s="1"')}${cell('D2', '46327', ' s="2"')}${cell('E2', '3', ' s="3"')}${cell('F2', '46327.25', ' s="4"')}${cell('G2', '1', ' t="b"')}</row>` +
      `<row r="3">${cell('A3', '2')}${cell('B3', '-2', ' s="1"')}${text('C3', ' ')}${cell('E3', '4', ' s="3"')}${cell('F3', '46328', ' s="4"')}${cell('G3', '0', ' t="b"')}</row>`
    const bytes = zipSync({
      'xl/workbook.xml': strToU8(
        `<workbook ${NS} xmlns:r="r"><workbookPr date1904="1"/><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8(`<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
      'xl/styles.xml': strToU8(styles),
      'xl/worksheets/sheet1.xml': strToU8(`<worksheet ${NS}><sheetData>${sheet}</sheetData></worksheet>`),
    })
    const read = readXlsxWorkbook(bytes)
    expect(read.columnTypes).toEqual(['integer', 'number', 'date', 'date', 'integer', 'timestamp', 'boolean'])
    expect(read.date1904).toBe(true)
  })
})
