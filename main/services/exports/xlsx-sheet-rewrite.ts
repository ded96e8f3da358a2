import type { TimeGranularity } from '../../../common/granularity'
import type { ExportColumns } from './export-columns'

/**
 * The text side of an xlsx export made readable (xlsx-export-stream.ts does the zip side): the
 * styles part gains one date format per time granularity, and the sheet's rows are rewritten as
 * they stream: the header's API names become the screens' labels, and a date column's text
 * cells ("2026-12-01", as the platform writes them) become date cells (Excel's day number with a
 * date format), so Excel sorts, filters and sums by date, and a table reading the file sees dates.
 * Cells are read as the platform writes them: inline strings (`inlineStr`) or formula strings
 * (`str`); a shared string (`s`) is left as it is, since the table it points to is another part.
 */

/** The granularities whose text a date cell can hold exactly, with the format it is shown in. */
const DATE_FORMATS: Partial<Record<TimeGranularity, string>> = { hour: 'yyyy-mm-dd hh:mm', day: 'yyyy-mm-dd', month: 'yyyy-mm' }
const PATTERNS: Partial<Record<TimeGranularity, RegExp>> = {
  hour: /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/,
  day: /^(\d{4})-(\d{2})-(\d{2})$/,
  month: /^(\d{4})-(\d{2})$/,
}
/** Excel's day 0 (its 1900 system, with the leap-year bug folded in for every date after March 1900). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30)

const escapeXml = (text: string): string =>
  text.replace(/[&<>"]/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[character] ?? character)
const unescapeXml = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (whole, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
    if (entity.startsWith('#')) return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)))
    return named[entity.toLowerCase()] ?? whole
  })

/** Excel's serial number of a time key's text, or null when it does not read as one. */
export function excelDate(text: string, granularity: TimeGranularity): number | null {
  const match = PATTERNS[granularity]?.exec(text)
  if (!match) return null
  const [year, month, day = 1, hour = 0, minute = 0] = match.slice(1).map(Number) as [number, number, number?, number?, number?]
  const ms = Date.UTC(year, month - 1, day, hour, minute)
  const back = new Date(ms)
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null
  return (ms - EXCEL_EPOCH_MS) / 86_400_000
}

/** The style indexes the rewrite gives cells: a date format per granularity, and the bold header (null: the fonts could not be read). */
export interface ExportStyles {
  dates: Partial<Record<TimeGranularity, number>>
  header: number | null
}

/** The header row bold and frozen at the top, as the app's own workbooks have it (xlsx-writer.ts). */
const FROZEN_HEADER =
  '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>'

/** The styles part with a date format per granularity and a bold font added, or null when the part does not read as styles. */
export function addExportStyles(xml: string): { xml: string; styles: ExportStyles } | null {
  const cellXfs = /<cellXfs\b([^>]*?)(?:\/>|>([\s\S]*?)<\/cellXfs>)/.exec(xml)
  const open = /<styleSheet\b[^>]*>/.exec(xml)
  if (cellXfs === null || open === null) return null
  const existing = (cellXfs[2] ?? '').match(/<xf\b/g)?.length ?? 0
  const ids = [...xml.matchAll(/numFmtId="(\d+)"/g)].map((match) => Number(match[1]))
  let nextId = Math.max(163, ...ids) + 1
  const formats = Object.entries(DATE_FORMATS) as Array<[TimeGranularity, string]>
  const numFmts = formats.map(([, code]) => `<numFmt numFmtId="${nextId++}" formatCode="${escapeXml(code)}"/>`)
  const firstId = nextId - formats.length
  const xfs = formats.map((_format, index) => `<xf numFmtId="${firstId + index}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`)
  const dates = Object.fromEntries(formats.map(([granularity], index) => [granularity, existing + index]))
  const fonts = /<fonts\b[^>]*>([\s\S]*?)<\/fonts>/.exec(xml)
  const fontCount = fonts?.[1]?.match(/<font\b/g)?.length ?? 0
  if (fonts !== null && fontCount > 0) xfs.push(`<xf numFmtId="0" fontId="${fontCount}" fillId="0" borderId="0" xfId="0" applyFont="1"/>`)
  const styles: ExportStyles = { dates, header: fonts !== null && fontCount > 0 ? existing + formats.length : null }

  const newXfs = `<cellXfs count="${existing + xfs.length}">${cellXfs[2] ?? ''}${xfs.join('')}</cellXfs>`
  let patched = xml.slice(0, cellXfs.index) + newXfs + xml.slice(cellXfs.index + cellXfs[0].length)
  if (fonts !== null && fontCount > 0) {
    const boldFonts = `<fonts count="${fontCount + 1}">${fonts[1] ?? ''}<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>`
    patched = patched.replace(fonts[0], () => boldFonts)
  }
  const oldFmts = /<numFmts\b[^>]*>([\s\S]*?)<\/numFmts>/.exec(patched)
  if (oldFmts !== null) {
    const count = (oldFmts[1]?.match(/<numFmt\b/g)?.length ?? 0) + numFmts.length
    patched =
      patched.slice(0, oldFmts.index) +
      `<numFmts count="${count}">${oldFmts[1] ?? ''}${numFmts.join('')}</numFmts>` +
      patched.slice(oldFmts.index + oldFmts[0].length)
  } else
    patched =
      patched.slice(0, open.index + open[0].length) +
      `<numFmts count="${numFmts.length}">${numFmts.join('')}</numFmts>` +
      patched.slice(open.index + open[0].length)
  return { xml: patched, styles }
}

/** A 0-based column from a reference (`C12` → 2). */
function columnOf(reference: string): number {
  let index = 0
  for (const character of reference.replace(/\d+$/, '')) index = index * 26 + (character.charCodeAt(0) - 64)
  return index - 1
}

const ROW = /<row\b([^>]*?)(\/>|>([\s\S]*?)<\/row>)/g
const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g
const TEXT = /<(t|v)\b([^>]*)>([\s\S]*?)<\/\1>/

export interface SheetRewriter {
  /** Sheet text in; the rewritten text of the rows it completes out (the rest waits for the next piece). */
  push(text: string): string
  end(): string
}

/** `styles`: the date styles once the styles part has been read (null: not read, dates stay text). */
export function createSheetRewriter(columns: ExportColumns, styles: () => ExportStyles | null): SheetRewriter {
  let pending = ''
  let header = true
  const dateColumns = new Map<number, TimeGranularity>()

  function cells(row: string, each: (attributes: string, content: string, column: number) => string): string {
    let column = -1
    return row.replace(CELL, (whole, attributes: string, content: string | undefined) => {
      const reference = /\br="([A-Z]+\d+)"/.exec(attributes)
      column = reference ? columnOf(reference[1] as string) : column + 1
      return content === undefined ? whole : each(attributes, content, column)
    })
  }

  function rewriteHeader(row: string): string {
    const bold = styles()?.header ?? null
    return cells(row, (given, content, column) => {
      const attributes = bold === null ? given : `${given.replace(/\ss="[^"]*"/g, '')} s="${bold}"`
      const text = TEXT.exec(content)
      if (text === null || /\bt="s"/.test(attributes)) return `<c${attributes}>${content}</c>`
      const name = unescapeXml(text[3] as string)
      const granularity = columns.dates[name]
      if (granularity !== undefined) dateColumns.set(column, granularity)
      const label = columns.labels?.[name]
      const renamed =
        label === undefined
          ? content
          : content.replace(TEXT, (_whole, tag: string, tagAttributes: string) => `<${tag}${tagAttributes}>${escapeXml(label)}</${tag}>`)
      return `<c${attributes}>${renamed}</c>`
    })
  }

  function rewriteRow(row: string): string {
    const known = styles()
    if (known === null) return row
    return cells(row, (attributes, content, column) => {
      const granularity = dateColumns.get(column)
      const style = granularity === undefined ? undefined : known.dates[granularity]
      const text = style === undefined || /\bt="s"/.test(attributes) ? null : TEXT.exec(content)
      const serial = text === null || granularity === undefined ? null : excelDate(unescapeXml(text[3] as string).trim(), granularity)
      if (serial === null) return `<c${attributes}>${content}</c>`
      return `<c${attributes.replace(/\s(t|s)="[^"]*"/g, '')} s="${style}"><v>${serial}</v></c>`
    })
  }

  /** The header frozen, where the schema puts a sheet's views (before its format, columns and data); a sheet with views of its own keeps them. */
  function freeze(text: string): string {
    if (/<sheetViews\b/.test(text)) return text
    const before = /<(sheetFormatPr|cols|sheetData)\b/.exec(text)
    return before === null ? text : text.slice(0, before.index) + FROZEN_HEADER + text.slice(before.index)
  }

  function rewrite(text: string): string {
    return text.replace(ROW, (whole) => {
      if (header) {
        header = false
        return rewriteHeader(whole)
      }
      return dateColumns.size === 0 ? whole : rewriteRow(whole)
    })
  }

  return {
    push(text) {
      pending += text
      const end = pending.lastIndexOf('</row>')
      if (end < 0) return ''
      const complete = pending.slice(0, end + '</row>'.length)
      pending = pending.slice(end + '</row>'.length)
      // The first rows to go out hold the sheet's start, its views included.
      return header ? freeze(rewrite(complete)) : rewrite(complete)
    },
    end() {
      const rest = rewrite(pending)
      pending = ''
      return rest
    },
  }
}
