import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { withReadableXlsx } from '../../../main/services/exports/xlsx-export-stream'
import { addExportStyles, createSheetRewriter, excelDate } from '../../../main/services/exports/xlsx-sheet-rewrite'

const inline = (text: string, reference = ''): string =>
  `<c${reference ? ` r="${reference}"` : ''} t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`
const columns = { labels: { granularity_day: 'Day', publisher: 'Publisher' }, dates: { granularity_day: 'day' as const } }
const styles = { dates: { hour: 1, day: 2, month: 3 }, header: 4 }

describe('an xlsx export made readable', () => {
  it('reads a time key as Excel’s day number, and refuses what is not one', () => {
    expect(excelDate('1900-03-01', 'day')).toBe(61)
    expect(excelDate('2026-12-07', 'day')).toBe(46363)
    expect(excelDate('2026-12-07 06:00', 'hour')).toBe(46363.25)
    expect(excelDate('2026-12', 'month')).toBe(46357)
    expect(excelDate('2026-02-30', 'day')).toBeNull()
    expect(excelDate('2026-W49', 'week')).toBeNull()
  })

  it('adds a date style per granularity and a bold one after the styles the file has', () => {
    const patched = addExportStyles(
      '<styleSheet xmlns="x"><fonts count="1"><font><sz val="11"/></font></fonts><cellXfs count="1"><xf xfId="0"/></cellXfs></styleSheet>',
    )
    expect(patched?.styles).toEqual({ dates: { hour: 1, day: 2, month: 3 }, header: 4 })
    expect(patched?.xml).toContain('<numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/>')
    expect(patched?.xml).toContain('<cellXfs count="5"><xf xfId="0"/><xf numFmtId="164"')
    expect(patched?.xml).toContain('<fonts count="2"><font><sz val="11"/></font><font><b/>')
    expect(patched?.xml).toContain('<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>')
    // Fonts it cannot read: dates all the same, the header as it was.
    expect(addExportStyles('<styleSheet><cellXfs count="1"><xf/></cellXfs></styleSheet>')?.styles.header).toBeNull()
    expect(addExportStyles('<not-styles/>')).toBeNull()
  })

  it('renames the header, bold and frozen, and types the date column, a row cut between pieces, cells placed by reference', () => {
    const sheet =
      `<worksheet><dimension ref="A1:C3"/><cols><col min="1" max="1" width="9"/></cols><sheetData><row r="1">${inline('publisher')}${inline('granularity_day')}${inline('impressions')}</row>` +
      `<row r="2"><c><v>7</v></c>${inline('2026-12-07')}<c><v>5</v></c></row>` +
      `<row r="3"><c r="A3"><v>8</v></c>${inline('2026-12-08', 'B3')}</row><row r="4"/></sheetData></worksheet>`
    const rewriter = createSheetRewriter(columns, () => styles)
    const cut = sheet.indexOf('2026-12-07') + 4
    const out = rewriter.push(sheet.slice(0, cut)) + rewriter.push(sheet.slice(cut)) + rewriter.end()
    const bold = (text: string): string => inline(text).replace('<c t="inlineStr">', '<c t="inlineStr" s="4">')
    expect(out).toContain(`${bold('Publisher')}${bold('Day')}${bold('impressions')}`)
    expect(out).toContain(
      '<dimension ref="A1:C3"/><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>',
    )
    expect(out).toContain('</sheetViews><cols>')
    expect(out).toContain('<row r="2"><c><v>7</v></c><c s="2"><v>46363</v></c><c><v>5</v></c></row>')
    expect(out).toContain('<c r="B3" s="2"><v>46364</v></c>')
    expect(out.endsWith('<row r="4"/></sheetData></worksheet>')).toBe(true)
  })

  it('leaves dates as text when the styles came after the sheet, and shared strings as they are', () => {
    const sheet = `<sheetData><row>${inline('granularity_day')}<c t="s"><v>0</v></c></row><row>${inline('2026-12-07')}</row></sheetData>`
    const out = createSheetRewriter(columns, () => null).push(sheet)
    expect(out).toContain(inline('2026-12-07'))
    expect(out).toContain('<c t="s"><v>0</v></c>')
  })
})

describe('an xlsx export that cannot be read', () => {
  const columns = { labels: null, dates: { granularity_day: 'day' as const } }
  const download = (bytes: Uint8Array) => ({
    async *[Symbol.asyncIterator]() {
      yield Buffer.from(bytes)
    },
    destroy: () => undefined,
  })
  const written = async (bytes: Uint8Array): Promise<number> => {
    let size = 0
    for await (const chunk of withReadableXlsx(download(bytes), columns)) size += chunk.length
    return size
  }

  it('fails with a sentence when cut short or not a zip, and is written when whole', async () => {
    const sheet = `<sheetData>${'<row><c><v>1</v></c></row>'.repeat(5_000)}</sheetData>`
    const whole = zipSync({
      'xl/styles.xml': strToU8('<styleSheet><cellXfs count="1"><xf/></cellXfs></styleSheet>'),
      'xl/worksheets/sheet1.xml': strToU8(sheet),
    })
    expect(await written(whole)).toBeGreaterThan(100)
    await expect(written(whole.subarray(0, Math.floor(whole.length / 2)))).rejects.toThrow(
      /^The platform's xlsx file could not be read \(.+\); nothing was saved/,
    )
    await expect(written(strToU8('{"status":"success"}'))).rejects.toThrow("The platform's xlsx file could not be read (it is not a zip file)")
  })
})
