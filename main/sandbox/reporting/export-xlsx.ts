import { Zip, ZipDeflate } from 'fflate'
import type { Cell, ExportFile } from './export'
import { CHUNK_CHARACTERS, ChunkWriter } from './export-sink'
import type { ByteSink } from './export-sink'

/**
 * A minimal Office Open XML workbook with one sheet, streamed: the sheet XML is deflated chunk
 * by chunk into a zip whose output goes straight to the sink. Strings are inline (`inlineStr`)
 * because a shared-strings table would have to be held in memory until the end.
 */

// A fixed timestamp in the zip headers keeps the same request byte-identical across runs.
const ZIP_TIME = new Date(Date.UTC(2024, 0, 1))

const STATIC_PARTS: ReadonlyArray<readonly [string, string]> = [
  [
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  ],
  [
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  ],
  [
    'xl/workbook.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Report" sheetId="1" r:id="rId1"/></sheets></workbook>',
  ],
  [
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  ],
  [
    'xl/styles.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="1"><xf xfId="0"/></cellXfs></styleSheet>',
  ],
]

const SHEET_START =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
const SHEET_END = '</sheetData></worksheet>'

export function xmlText(text: string): string {
  // XML 1.0 cannot carry most control characters at all; drop them.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[&<>"]/g, (character) => (character === '&' ? '&amp;' : character === '<' ? '&lt;' : character === '>' ? '&gt;' : '&quot;'))
}

export function sheetRow(rowNumber: number, cells: readonly Cell[]): string {
  let xml = `<row r="${rowNumber}">`
  for (const cell of cells) {
    if (cell === null) xml += '<c/>'
    else if (typeof cell === 'number') xml += Number.isFinite(cell) ? `<c><v>${cell}</v></c>` : '<c/>'
    else xml += `<c t="inlineStr"><is><t xml:space="preserve">${xmlText(cell)}</t></is></c>`
  }
  return `${xml}</row>`
}

export async function writeXlsxExport(plan: ExportFile, sink: ByteSink): Promise<void> {
  const encoder = new TextEncoder()
  const writer = new ChunkWriter(sink)
  let pending: Uint8Array[] = []
  let failure: Error | null = null
  const zip = new Zip((error, chunk) => {
    if (error) failure = error
    else pending.push(chunk)
  })
  const flush = async (): Promise<void> => {
    if (failure) throw failure
    const chunks = pending
    pending = []
    for (const chunk of chunks) await writer.write(chunk)
  }

  for (const [name, content] of STATIC_PARTS) {
    const part = new ZipDeflate(name, { level: 6 })
    part.mtime = ZIP_TIME
    zip.add(part)
    part.push(encoder.encode(content), true)
  }
  await flush()

  const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 1 })
  sheet.mtime = ZIP_TIME
  zip.add(sheet)
  let buffer = SHEET_START + sheetRow(1, plan.columns)
  let rowNumber = 1
  for (const row of plan.rows) {
    buffer += sheetRow(++rowNumber, row)
    if (buffer.length >= CHUNK_CHARACTERS) {
      sheet.push(encoder.encode(buffer))
      buffer = ''
      await flush()
      if (writer.closed()) return
    }
  }
  sheet.push(encoder.encode(buffer + SHEET_END), true)
  zip.end()
  await flush()
}
