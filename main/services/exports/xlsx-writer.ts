import { strToU8, zipSync } from 'fflate'

/**
 * A small XLSX writer: one sheet of text and numbers, through fflate (the zip side of
 * bulk/read-xlsx.ts, the other way). Enough for a table as the app shows it: bold header rows,
 * each number column with its own number format (styles.xml `numFmts`), the header rows and
 * label columns frozen (`<pane ySplit xSplit>`), strings inline (no shared-string table to
 * build), empty cells left out (an empty cell stays empty, never 0).
 */
export type XlsxCell = string | number | null

export interface XlsxSheet {
  name: string
  rows: readonly (readonly XlsxCell[])[]
  /** Rows drawn bold and frozen at the top. */
  headerRows: number
  /** Columns frozen on the left. */
  frozenColumns: number
  /** The number format (Excel's code, `#,##0.00`) of each column's numbers; undefined: General. */
  columnFormats: readonly (string | undefined)[]
  /** Widths in characters, per column; undefined: Excel's default. */
  columnWidths?: readonly (number | undefined)[]
}

const escapeXml = (text: string): string =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')

/** `A`, `B`, …, `Z`, `AA`… for a 0-based column. */
export function columnName(index: number): string {
  let name = ''
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(65 + ((rest - 1) % 26)) + name
  return name
}

/** Style indexes: 0 plain, 1 bold (headers), then one per distinct number format. */
function styles(formats: readonly (string | undefined)[]): { xml: string; styleOf: (format: string | undefined) => number } {
  const codes = [...new Set(formats.filter((format): format is string => format !== undefined))]
  const numFmts = codes.map((code, index) => `<numFmt numFmtId="${164 + index}" formatCode="${escapeXml(code)}"/>`).join('')
  const xfs = [
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
    ...codes.map((_code, index) => `<xf numFmtId="${164 + index}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`),
  ]
  const xml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    (codes.length > 0 ? `<numFmts count="${codes.length}">${numFmts}</numFmts>` : '') +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
  return { xml, styleOf: (format) => (format === undefined ? 0 : 2 + codes.indexOf(format)) }
}

function sheetXml(sheet: XlsxSheet, styleOf: (format: string | undefined) => number): string {
  const parts: string[] = []
  const pane = (() => {
    if (sheet.headerRows === 0 && sheet.frozenColumns === 0) return '<sheetView workbookViewId="0"/>'
    const topLeft = `${columnName(sheet.frozenColumns)}${sheet.headerRows + 1}`
    const split = `${sheet.frozenColumns > 0 ? ` xSplit="${sheet.frozenColumns}"` : ''}${sheet.headerRows > 0 ? ` ySplit="${sheet.headerRows}"` : ''}`
    const active = sheet.headerRows > 0 && sheet.frozenColumns > 0 ? 'bottomRight' : sheet.headerRows > 0 ? 'bottomLeft' : 'topRight'
    return `<sheetView workbookViewId="0"><pane${split} topLeftCell="${topLeft}" activePane="${active}" state="frozen"/></sheetView>`
  })()
  parts.push(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
    `<sheetViews>${pane}</sheetViews>`,
  )
  const widths = sheet.columnWidths ?? []
  if (widths.some((width) => width !== undefined)) {
    parts.push('<cols>')
    widths.forEach((width, index) => {
      if (width !== undefined) parts.push(`<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`)
    })
    parts.push('</cols>')
  }
  parts.push('<sheetData>')
  sheet.rows.forEach((row, rowIndex) => {
    const header = rowIndex < sheet.headerRows
    parts.push(`<row r="${rowIndex + 1}">`)
    row.forEach((cell, columnIndex) => {
      if (cell === null || cell === '') return
      const reference = `${columnName(columnIndex)}${rowIndex + 1}`
      if (typeof cell === 'number') {
        if (!Number.isFinite(cell)) return
        parts.push(`<c r="${reference}" s="${header ? 1 : styleOf(sheet.columnFormats[columnIndex])}"><v>${cell}</v></c>`)
      } else parts.push(`<c r="${reference}" t="inlineStr"${header ? ' s="1"' : ''}><is><t xml:space="preserve">${escapeXml(cell)}</t></is></c>`)
    })
    parts.push('</row>')
  })
  parts.push('</sheetData></worksheet>')
  return parts.join('')
}

/** The workbook's bytes: one sheet named `sheet.name` (cut to Excel's 31 characters, no `[]:*?/\`). */
export function writeXlsx(sheet: XlsxSheet): Uint8Array {
  const name = escapeXml(sheet.name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1')
  const { xml: stylesXml, styleOf } = styles(sheet.columnFormats)
  const header = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
  const files = {
    '[Content_Types].xml':
      header +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
    '_rels/.rels':
      header +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    'xl/workbook.xml':
      header +
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      header +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
    'xl/styles.xml': stylesXml,
    'xl/worksheets/sheet1.xml': sheetXml(sheet, styleOf),
  }
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])), { level: 6 })
}
