import { CUT_MARK, nextBreak, readCsvHead, readHead, type HeadLimits, type HeadRead, type Tokenizer } from '../reports/csv-head'
import { nodeExportFs, type ExportFs } from './fs'

/**
 * What a preview reads at most. The file may be anything (a hostile server's export, a file
 * changed on disk): an unterminated quote or a single 48 MB line must cost a bounded read, and
 * no cell may carry megabytes to the page. 8 MB holds 1,000 rows of any sensible export.
 */
export const PREVIEW_LIMITS: HeadLimits = { maxBytes: 8 * 1024 * 1024, maxCellChars: 1_000, maxCells: 1_000, onOverflow: 'mark' }

export interface ExportHead {
  columns: string[]
  rows: string[][]
  more: boolean
  /** What the preview left out, as sentences for the page; empty when it shows the file as it is. */
  notes: string[]
}

/**
 * The first rows of a finished csv/tsv export, read from the file and parsed in main (the page
 * never reads files). Reading stops once the rows are in, so a 1,000,000-row file costs a chunk.
 */
export async function readExportHead(
  filePath: string,
  format: 'csv' | 'tsv',
  rows: number,
  limits: HeadLimits = PREVIEW_LIMITS,
  fs: Pick<ExportFs, 'createReadStream'> = nodeExportFs,
): Promise<ExportHead> {
  // One record past the header and the rows says whether there is more.
  const wanted = rows + 2
  const stream = fs.createReadStream(filePath, { highWaterMark: 64 * 1024 })
  try {
    const read = format === 'csv' ? await readCsvHead(stream, wanted, limits) : await readTsvHead(stream, wanted, limits)
    const [columns = [], ...body] = read.records
    return { columns, rows: body.slice(0, rows), more: body.length > rows || read.stop === 'bytes', notes: previewNotes(read, limits) }
  } finally {
    stream.destroy()
  }
}

function previewNotes(read: HeadRead, limits: HeadLimits): string[] {
  const notes: string[] = []
  if (read.stop === 'bytes') {
    notes.push(
      `The preview stopped after the first ${Math.round(limits.maxBytes / (1024 * 1024))} MB of the file; open the file to see the rest (a quote that never closes makes one row of everything after it).`,
    )
  }
  if (read.cutCells > 0) {
    notes.push(
      `Cells longer than ${limits.maxCellChars.toLocaleString('en-US')} characters are cut and end with ${CUT_MARK}, and a row shows at most ${limits.maxCells.toLocaleString('en-US')} cells; the file itself is whole.`,
    )
  }
  return notes
}

const TSV_ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', '\\': '\\' }
/** What ends or changes a tsv cell: a tab, a line break, a carriage return before it, an escape. */
const TSV_BREAKS = [9, 10, 13, 92] as const

/**
 * tsv as the platform writes it (docs/architecture.md): tab-separated, line per row, `\t` `\n` `\r` `\\`
 * escaped; a CR before the LF is dropped. Each chunk is read from where the last one stopped.
 */
export function tsvTokenizer(): Tokenizer {
  /** A backslash ended the last chunk: the next character says what it escapes. */
  let escaping = false
  /** A carriage return ended the last chunk: dropped if a line break follows, kept otherwise. */
  let carriage = false
  return {
    feed(text, head) {
      let index = 0
      while (index < text.length) {
        if (escaping) {
          escaping = false
          const escaped = TSV_ESCAPES[text[index] as string]
          if (escaped !== undefined) {
            head.scan(1)
            if (!head.append(escaped, 0, 1)) return 'overflow'
            index++
            continue
          }
          // Not an escape: the backslash is itself, and the character is read as usual.
          if (!head.append('\\', 0, 1)) return 'overflow'
        }
        if (carriage) {
          carriage = false
          if (text[index] !== '\n' && !head.append('\r', 0, 1)) return 'overflow'
        }
        const found = nextBreak(text, index, TSV_BREAKS)
        const end = found < 0 ? text.length : found
        head.scan(end - index + (found < 0 ? 0 : 1))
        if (!head.append(text, index, end)) return 'overflow'
        if (found < 0) return 'more'
        index = end + 1
        const separator = text[found]
        if (separator === '\\') escaping = true
        else if (separator === '\r') carriage = true
        else if (separator === '\t') {
          if (!head.endCell()) return 'overflow'
        } else {
          const ended = head.endRecord()
          if (ended !== 'more') return ended
        }
      }
      return 'more'
    },
    finish(head) {
      if (escaping) head.append('\\', 0, 1)
      escaping = false
      carriage = false
    },
  }
}

/** The first records of a tsv stream within `limits`; see `readHead`. */
export function readTsvHead(source: AsyncIterable<Buffer | string>, maxRecords: number, limits: HeadLimits = PREVIEW_LIMITS): Promise<HeadRead> {
  return readHead(source, tsvTokenizer(), maxRecords, limits)
}
